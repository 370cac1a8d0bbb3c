/**
 * The MCP shapes the public API names, typed loosely (every object stays open to fields
 * that later revisions add), and the request-schema objects that v1 code passes to
 * `setRequestHandler`. ferrymcp validates messages in its Rust core, so these types are
 * for editors and compilers only; what crosses the wire is whatever core accepts.
 *
 * The `*RequestSchema` exports are small stand-ins for the official zod schemas: they
 * carry the method name where v1 code reads it (`schema.shape.method.value`), which is
 * all `setRequestHandler` needs from them.
 */

export type RequestId = string | number;
export type ProgressToken = string | number;
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

type Open = { [key: string]: unknown };

export interface Implementation extends Open {
  name: string;
  version: string;
  title?: string;
}

export type ServerCapabilities = Open;
export type ClientCapabilities = Open;
export type RequestMeta = Open & { progressToken?: ProgressToken };

export interface TextContent extends Open {
  type: 'text';
  text: string;
}
export interface ImageContent extends Open {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface AudioContent extends Open {
  type: 'audio';
  data: string;
  mimeType: string;
}
export interface ResourceLink extends Open {
  type: 'resource_link';
  uri: string;
  name: string;
}
export interface EmbeddedResource extends Open {
  type: 'resource';
  resource: ResourceContents;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ResourceContents extends Open {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface CallToolResult extends Open {
  content: ContentBlock[];
  structuredContent?: Open;
  isError?: boolean;
}
export interface ReadResourceResult extends Open {
  contents: ResourceContents[];
}
export interface PromptMessage extends Open {
  role: 'user' | 'assistant';
  content: ContentBlock;
}
export interface GetPromptResult extends Open {
  description?: string;
  messages: PromptMessage[];
}
export interface CompleteResult extends Open {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

export interface ToolAnnotations extends Open {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}
export interface Tool extends Open {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Open;
  outputSchema?: Open;
  annotations?: ToolAnnotations;
}
export interface Resource extends Open {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}
export interface ResourceTemplateDefinition extends Open {
  uriTemplate: string;
  name: string;
}
export interface PromptArgument extends Open {
  name: string;
  description?: string;
  required?: boolean;
}
export interface Prompt extends Open {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface ListToolsResult extends Open {
  tools: Tool[];
  nextCursor?: string;
}
export interface ListResourcesResult extends Open {
  resources: Resource[];
  nextCursor?: string;
}
export interface ListResourceTemplatesResult extends Open {
  resourceTemplates: ResourceTemplateDefinition[];
  nextCursor?: string;
}
export interface ListPromptsResult extends Open {
  prompts: Prompt[];
  nextCursor?: string;
}

export interface ElicitRequestParams extends Open {
  message: string;
  requestedSchema?: Open;
  mode?: 'form' | 'url';
}
export interface ElicitResult extends Open {
  action: 'accept' | 'decline' | 'cancel';
  content?: Open;
}
export interface CreateMessageRequestParams extends Open {
  messages: Open[];
  maxTokens: number;
}
export interface CreateMessageResult extends Open {
  role: 'user' | 'assistant';
  content: Open;
  model: string;
}
export interface Root extends Open {
  uri: string;
  name?: string;
}
export interface ListRootsResult extends Open {
  roots: Root[];
}

export interface Progress extends Open {
  progress: number;
  total?: number;
  message?: string;
}

export interface Notification {
  method: string;
  params?: Open;
}
export interface Request {
  method: string;
  params?: Open;
}

/** A v1-style request schema: only the method name is read. */
export interface RequestSchema<M extends string = string> {
  readonly shape: { readonly method: { readonly value: M } };
}

function requestSchema<M extends string>(method: M): RequestSchema<M> {
  return Object.freeze({ shape: Object.freeze({ method: Object.freeze({ value: method }) }) });
}

export const CreateMessageRequestSchema = requestSchema('sampling/createMessage');
export const ElicitRequestSchema = requestSchema('elicitation/create');
export const ListRootsRequestSchema = requestSchema('roots/list');
// The feature requests a low-level `Server` answers itself (`setRequestHandler`).
export const ListToolsRequestSchema = requestSchema('tools/list');
export const CallToolRequestSchema = requestSchema('tools/call');
export const ListResourcesRequestSchema = requestSchema('resources/list');
export const ListResourceTemplatesRequestSchema = requestSchema('resources/templates/list');
export const ReadResourceRequestSchema = requestSchema('resources/read');
export const SubscribeRequestSchema = requestSchema('resources/subscribe');
export const UnsubscribeRequestSchema = requestSchema('resources/unsubscribe');
export const ListPromptsRequestSchema = requestSchema('prompts/list');
export const GetPromptRequestSchema = requestSchema('prompts/get');
export const CompleteRequestSchema = requestSchema('completion/complete');
export const SetLevelRequestSchema = requestSchema('logging/setLevel');

export { McpError, ErrorCode } from './errors.js';

// What v1 code imports from `types.js` beside the shapes: constants, guards and errors.
export * from './guards.js';
export { UrlElicitationRequiredError } from './errors.js';
