/**
 * The v1 SDK's own task shapes that the specification's JSON Schemas do not name (so
 * `schemas.ts`, generated from them, has none): the tasks capability of each side, the
 * options of a task's creation, and the client's list-changed options. Written from the
 * 2025-11-25 capability fields; exported from `ferrymcp/types.js` and the v1 experimental
 * task paths, as there.
 */
import * as z from 'zod';

import { lazySchema } from './lazy-schema.js';

/** A capability flag: present means supported (any object). */
const Flag = z.record(z.string(), z.unknown());

/** A client's `capabilities.tasks`: listing, cancelling, and the requests it runs as tasks. */
export const ClientTasksCapabilitySchema = lazySchema(() =>
  z.looseObject({
    list: Flag.optional(),
    cancel: Flag.optional(),
    requests: z
      .looseObject({
        sampling: z.looseObject({ createMessage: Flag.optional() }).optional(),
        elicitation: z.looseObject({ create: Flag.optional() }).optional(),
      })
      .optional(),
  }),
);

/** A server's `capabilities.tasks`: listing, cancelling, and `tools/call` run as a task. */
export const ServerTasksCapabilitySchema = lazySchema(() =>
  z.looseObject({
    list: Flag.optional(),
    cancel: Flag.optional(),
    requests: z.looseObject({ tools: z.looseObject({ call: Flag.optional() }).optional() }).optional(),
  }),
);

/** What a task is created with: how long it is kept, how often to poll it (milliseconds). */
export const TaskCreationParamsSchema = lazySchema(() => z.looseObject({ ttl: z.number().optional(), pollInterval: z.number().optional() }));

/** The client's `listChanged` options: refresh on a change (default true), debounced (default 300 ms). */
export const ListChangedOptionsBaseSchema = lazySchema(() =>
  z.object({ autoRefresh: z.boolean().default(true), debounceMs: z.number().int().nonnegative().default(300) }),
);
