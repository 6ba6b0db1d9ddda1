/** The algorithms a `jwtSecret` signs with (Strapi's legacy mode signs and verifies with that secret alone). */
export const SECRET_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
/** The algorithms of a key pair (`privateKey` signs, `publicKey` verifies): Strapi 5.54's "refresh" mode takes them. */
export const KEY_PAIR_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;
export type JwtAlgorithm = (typeof SECRET_ALGORITHMS)[number] | (typeof KEY_PAIR_ALGORITHMS)[number];
