/**
 * `ferrymcp/server/requestBody.js`: the request body limit, from core (core reads and caps
 * request bodies itself; `readRequestBody` and the batch cap are not exposed).
 */
export { DEFAULT_MAX_REQUEST_BODY_SIZE } from '../guards.js';
