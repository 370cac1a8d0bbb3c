/**
 * The `taskStore` server option: an application's v1 `TaskStore` object handed to core,
 * which keeps the server's 2025-11-25 tasks there and serves `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel` from it.
 *
 * An `InMemoryTaskStore` exactly (not a subclass) is core's own store, given to core as it
 * is; any other object (a subclass overriding a method too) is called through one function,
 * `(operation, argsJson) => Promise<json>`, which core holds weakly and waits on with a
 * deadline (`NativeTaskStore`). `sessionId` is core's number for the session.
 */
import { InMemoryTaskStore } from './experimental/tasks/stores/in-memory.js';
import type { TaskStore } from './experimental/tasks/interfaces.js';
import { NativeTaskStore, type NativeServer } from './native.js';
import { invalidOption } from './errors.js';

const METHODS = ['createTask', 'getTask', 'storeTaskResult', 'getTaskResult', 'updateTaskStatus', 'listTasks'] as const;

/** Throws unless `store` has the six methods of the official interface. */
export function checkTaskStore(store: unknown): asserts store is TaskStore {
  const missing = METHODS.filter((name) => typeof (store as Record<string, unknown> | null)?.[name] !== 'function');
  if (typeof store !== 'object' || store === null || missing.length > 0) {
    invalidOption('taskStore', `must be a TaskStore (createTask, getTask, storeTaskResult, getTaskResult, updateTaskStatus, listTasks); missing ${missing.join(', ')}`);
  }
}

/** What `close()` drops: the function core calls, when there is one. */
export interface AttachedTaskStore {
  close(): void;
}

/** Gives `store` to `native` as the server's task store. */
export function attachTaskStore(native: InstanceType<typeof NativeServer>, store: TaskStore): AttachedTaskStore | undefined {
  if (store instanceof InMemoryTaskStore && Object.getPrototypeOf(store) === InMemoryTaskStore.prototype) {
    native.setInMemoryTaskStore(store.native);
    return undefined;
  }
  const call = async (operation: string, argsJson: string): Promise<string> => {
    const args = JSON.parse(argsJson) as unknown[];
    const session = (args.at(-1) ?? undefined) as string | undefined;
    const [first, second, third] = args as [never, never, never];
    switch (operation) {
      case 'createTask':
        return JSON.stringify(await store.createTask(first, second, third, session));
      case 'getTask':
        return JSON.stringify((await store.getTask(first, session)) ?? null);
      case 'storeTaskResult':
        await store.storeTaskResult(first, second, third, session);
        return 'null';
      case 'getTaskResult':
        return JSON.stringify(await store.getTaskResult(first, session));
      case 'updateTaskStatus':
        await store.updateTaskStatus(first, second, third ?? undefined, session);
        return 'null';
      case 'listTasks':
        return JSON.stringify(await store.listTasks(first ?? undefined, session));
      default:
        throw new TypeError(`unknown task store operation ${operation}`);
    }
  };
  const attached = new NativeTaskStore(call, {});
  native.setTaskStore(attached);
  return attached;
}
