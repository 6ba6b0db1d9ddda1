export { bodyData, coreRoutes, registerActions, registerContentApi, type CoreAction, type CoreRoute } from './content-api.js';
export { rawQuery, readSpec } from './query.js';
export { toV4Text, wantsV4 } from './v4-format.js';
export { encodeSourceMaps, wantsSourceMaps } from './source-maps.js';
export { errorAnswer, installErrorHandling, type ErrorAnswer } from './errors.js';
export { installBodyParsers, unsupportedMediaType } from './body-parsers.js';
export type { RestContext } from './context.js';
