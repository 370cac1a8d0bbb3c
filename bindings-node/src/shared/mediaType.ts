/** `ferrymcp/shared/mediaType.js`: the v1 path of the `Content-Type` helpers. */
import { isJsonContentType } from '../guards.js';

export { isJsonContentType };

/**
 * The media type of a `Content-Type` header value without its parameters, lower-cased
 * (`'Application/JSON; charset=utf-8'` gives `'application/json'`); `undefined` for no
 * value, an empty one, or joined duplicate headers (a comma in the parameters). As the
 * official helper, a value without parameters is returned whole (lower-cased).
 */
export function mediaTypeEssence(header: string | null | undefined): string | undefined {
  if (typeof header !== 'string' || header === '') return undefined;
  const essence = (header.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (essence === '' || header.slice(essence.length).includes(',')) return undefined;
  return essence;
}
