/**
 * API tokens: only the hash of a key is stored, in Strapi's `strapi_api_tokens` and, for custom tokens, their
 * permission rows (strapi-layout/api-tokens.ts). `touchApiToken` keeps Strapi's own rule: written when empty or an
 * hour old (its caller asks at most once a minute per token).
 */
export type { ApiTokenType, NewApiToken, StoredApiToken } from './api-token-types.js';
export {
  strapiApiTokenNameTaken as apiTokenNameTaken,
  strapiDeleteApiToken as deleteApiToken,
  strapiFindApiTokenByKey as findApiTokenByKey,
  strapiInsertApiToken as insertApiToken,
  strapiListApiTokens as listApiTokens,
  strapiTouchApiToken as touchApiToken,
} from './strapi-layout/api-tokens.js';
