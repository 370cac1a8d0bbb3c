/**
 * `withInputRequired` (v2's client root): a result schema that also admits an
 * `input_required` result, for `client.request(request, schema, { allowInputRequired: true })`.
 */
import { isInputRequiredResult } from './guards.js';

/** The Standard Schema interface, as far as a result schema is read here. */
export interface StandardResultSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown, options?: unknown): StandardOutcome | Promise<StandardOutcome>;
  };
}

/** What a Standard Schema's `validate` gives. */
export type StandardOutcome =
  | { value: unknown; issues?: undefined }
  | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

/**
 * Wraps `schema` so an `input_required` result passes as it is and any other result is
 * validated by `schema`, as the official `withInputRequired`.
 */
export function withInputRequired<S extends StandardResultSchema>(schema: S): StandardResultSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'modelcontextprotocol',
      validate: (value: unknown, options?: unknown) =>
        isInputRequiredResult(value) ? { value } : schema['~standard'].validate(value, options),
    },
  };
}

/** A Standard Schema's issues in one line, as the official client words them. */
export function formatIssues(issues: Extract<StandardOutcome, { issues: unknown }>['issues']): string {
  return issues
    .map((issue) =>
      issue.path?.length
        ? `${issue.path.map((p) => String(typeof p === 'object' && p !== null ? p.key : p)).join('.')}: ${issue.message}`
        : issue.message,
    )
    .join(', ');
}
