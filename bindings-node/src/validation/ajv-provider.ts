/**
 * `ferrymcp/validation/ajv-provider.js`: the v1 JSON Schema validator. Core validates in
 * Rust and the `jsonSchemaValidator` options are refused, so constructing one throws
 * `FerrymcpUnsupportedError` (`code` `ERR_FERRYMCP_UNSUPPORTED`) naming it.
 */
import { placeholderClass } from '../auth-helpers.js';

export const AjvJsonSchemaValidator = placeholderClass('AjvJsonSchemaValidator', 'core validates JSON Schema in Rust and takes no validator (the jsonSchemaValidator options are refused)');
