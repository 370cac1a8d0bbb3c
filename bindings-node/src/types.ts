/**
 * The MCP shapes the public API names, typed loosely (every object stays open to fields
 * that later revisions add), and the request-schema objects that v1 code passes to
 * `setRequestHandler`. ferrymcp validates messages in its Rust core, so these types are
 * for editors and compilers only; what crosses the wire is whatever core accepts.
 *
 * The `*Schema` exports are zod schemas of every MCP definition (`schemas.ts`, generated
 * from the official JSON Schemas): v1 code validates with them, and passes the request
 * and notification ones to `setRequestHandler` / `setNotificationHandler`, which read the
 * method name from them (`schema.shape.method.value`).
 */

import * as z from 'zod';

import { lazySchema } from './lazy-schema.js';
import {
  AudioContentSchema,
  CallToolResultSchema,
  CreateMessageResultSchema,
  ImageContentSchema,
  ResourceTemplateReferenceSchema,
  TextContentSchema,
} from './schemas.js';

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

/** A v1-style request schema: only the method name is read (any of `schemas.ts`'s request schemas, or zod's). */
export interface RequestSchema<M extends string = string> {
  readonly shape: { readonly method: { readonly value: M } };
}

// v1's zod schemas (`CallToolResultSchema`, `ListToolsRequestSchema`, ...), generated from the specification.
export * from './schemas.js';
// And v1's own task and list-changed shapes, which the specification names no schema for.
export { ClientTasksCapabilitySchema, ListChangedOptionsBaseSchema, ServerTasksCapabilitySchema, TaskCreationParamsSchema } from './v1-task-schemas.js';

// The few v1 schemas that are the SDK's own compositions rather than definitions of the
// specification (built on first use, as the generated ones).
/** `{progress, total?, message?}`: what a progress notification reports. */
export const ProgressSchema = lazySchema(() => z.looseObject({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }));
/** v1's name of the reference to a resource template in `completion/complete`. */
export const ResourceReferenceSchema = ResourceTemplateReferenceSchema;
/** A tool result, or the `{toolResult}` shape of protocol revision 2024-10-07. */
export const CompatibilityCallToolResultSchema = lazySchema(() => z.union([CallToolResultSchema, z.looseObject({ _meta: z.record(z.string(), z.unknown()).optional(), toolResult: z.unknown() })]));
/** Text, image or audio: the content of a sampling message without tools. */
export const SamplingContentSchema = lazySchema(() => z.union([TextContentSchema, ImageContentSchema, AudioContentSchema]));
/** A sampling result that may carry tool use (2025-11-25's `CreateMessageResult` does). */
export const CreateMessageResultWithToolsSchema = CreateMessageResultSchema;
/** The params of `notifications/elicitation/complete`. */
export const ElicitationCompleteNotificationParamsSchema = lazySchema(() => z.looseObject({ _meta: z.record(z.string(), z.unknown()).optional(), elicitationId: z.string() }));

export { McpError, ErrorCode } from './errors.js';

// What v1 code imports from `types.js` beside the shapes: constants, guards and errors.
export * from './guards.js';
export { UrlElicitationRequiredError } from './errors.js';
export { assertCompleteRequestPrompt, assertCompleteRequestResourceTemplate, isTaskAugmentedRequestParams } from './spec-guards.js';
