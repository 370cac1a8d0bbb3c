/** `ferrymcp/server/middleware/hostHeaderValidation.js`: the v1 SDK's Express Host guards. */
export { hostHeaderValidation, localhostHostValidation } from '../../express.js';
