/**
 * `ResourceTemplate`, as the official SDK has it: an RFC 6570 URI template plus optional
 * callbacks that list the resources it covers and complete its variables. Matching URIs
 * against the template is core's job (it parses the template at registration and hands
 * the variables to the read callback), so this class only carries what the user gave.
 */
import type { HandlerContext } from './context.js';
import type { ListResourcesResult } from './types.js';

export type ListResourcesCallback = (ctx: HandlerContext) => ListResourcesResult | Promise<ListResourcesResult>;
export type CompleteResourceTemplateCallback = (
  value: string,
  context?: { arguments?: Record<string, string> },
) => string[] | Promise<string[]>;

/** The template text; `toString()` gives it back, as the official `UriTemplate` does. */
export class UriTemplate {
  constructor(readonly template: string) {}

  toString(): string {
    return this.template;
  }
}

export class ResourceTemplate {
  readonly #uriTemplate: UriTemplate;
  readonly #callbacks: { list: ListResourcesCallback | undefined; complete?: Record<string, CompleteResourceTemplateCallback> };

  constructor(
    uriTemplate: string | UriTemplate,
    callbacks: { list: ListResourcesCallback | undefined; complete?: Record<string, CompleteResourceTemplateCallback> },
  ) {
    this.#uriTemplate = typeof uriTemplate === 'string' ? new UriTemplate(uriTemplate) : uriTemplate;
    this.#callbacks = callbacks;
  }

  get uriTemplate(): UriTemplate {
    return this.#uriTemplate;
  }

  get listCallback(): ListResourcesCallback | undefined {
    return this.#callbacks.list;
  }

  completeCallback(variable: string): CompleteResourceTemplateCallback | undefined {
    return this.#callbacks.complete?.[variable];
  }

  /** Whether any variable can be completed (ferrymcp: decides the completions capability). */
  hasCompleteCallbacks(): boolean {
    return Object.keys(this.#callbacks.complete ?? {}).length > 0;
  }
}
