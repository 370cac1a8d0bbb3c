/**
 * `ferrymcp/experimental/tasks/mcp-server.js`: v1's `ExperimentalMcpServerTasks`
 * (`mcpServer.experimental.tasks`), whose `registerToolTask` registers a tool that makes its
 * 2025-11-25 tasks itself: its `createTask(args, extra)` creates the task with
 * `extra.taskStore` (core's store for the request's session, each change announced to the
 * client), starts the work and returns `{ task }`. Core answers a task-augmented call with
 * that, and serves `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from the
 * store (the handler's `getTask` / `getTaskResult` are not called, as in the official
 * `McpServer`); an `optional` tool called without `task` waits for its task to end and
 * answers the task's result.
 */
import type { McpServer, RegisteredTool, ToolConfig } from '../../mcp-server.js';
import type { ToolTaskHandler } from './interfaces.js';

/** The config `registerToolTask` takes: a tool's, its `taskSupport` not `forbidden` (`required` unless given). */
export type ToolTaskConfig = Omit<ToolConfig, 'taskStart'>;

export class ExperimentalMcpServerTasks {
  readonly #server: McpServer;

  constructor(mcpServer: McpServer) {
    this.#server = mcpServer;
  }

  registerToolTask(name: string, config: ToolTaskConfig, handler: ToolTaskHandler): RegisteredTool {
    const execution = { taskSupport: 'required' as const, ...config.execution };
    if (execution.taskSupport === 'forbidden') {
      throw new Error(`Cannot register task-based tool '${name}' with taskSupport 'forbidden'. Use registerTool() instead.`);
    }
    if (typeof handler?.createTask !== 'function') throw new TypeError(`registerToolTask('${name}') needs a handler with a createTask function`);
    // With an input schema the tool's callback gets (args, extra), without one (extra):
    // createTask takes the same.
    const createTask = (...args: unknown[]) => (handler.createTask as (...a: unknown[]) => unknown)(...args);
    return this.#server.registerTool(name, { ...config, execution, taskStart: 'handler' }, createTask as never);
  }
}
