/** `ferrymcp/server/completable.js`: the v1 path of `completable`. */
export { completable } from '../schema.js';
