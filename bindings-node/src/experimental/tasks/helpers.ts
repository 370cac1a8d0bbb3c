/**
 * `ferrymcp/experimental/tasks/helpers.js`: the v1 checks that a peer's `tasks.requests`
 * capability covers a request about to be made as a task, with the official messages.
 * `entityName` is the peer's role as the message names it (`'Server'`, `'Client'`).
 */

type TaskRequests = { [kind: string]: { [method: string]: unknown } | undefined } | undefined;

function check(requests: TaskRequests, method: string, entityName: string, covered: Record<string, [string, string]>): void {
  if (!requests) throw new Error(`${entityName} does not support task creation (required for ${method})`);
  const path = covered[method];
  if (path !== undefined && !requests[path[0]]?.[path[1]]) {
    throw new Error(`${entityName} does not support task creation for ${method} (required for ${method})`);
  }
}

/** Throws unless `requests` lets `tools/call` run as a task (other methods pass). */
export function assertToolsCallTaskCapability(requests: TaskRequests, method: string, entityName: string): void {
  check(requests, method, entityName, { 'tools/call': ['tools', 'call'] });
}

/** Throws unless `requests` lets `sampling/createMessage` or `elicitation/create` run as a task (other methods pass). */
export function assertClientRequestTaskCapability(requests: TaskRequests, method: string, entityName: string): void {
  check(requests, method, entityName, { 'sampling/createMessage': ['sampling', 'createMessage'], 'elicitation/create': ['elicitation', 'create'] });
}
