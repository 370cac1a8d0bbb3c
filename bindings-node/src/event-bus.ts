/**
 * The change-event bus of `createMcpHandler` (official v2 `ServerEventBus`,
 * `InMemoryServerEventBus`, `ServerNotifier`): `handler.notify.toolsChanged()` and its
 * siblings publish on the bus, and the handler delivers what the bus hands its listeners
 * to the server's `subscriptions/listen` streams. Core serves the streams (acknowledgement,
 * filters, subscription ids, the `maxSubscriptions` cap, the graceful end on `close()`);
 * a bus over an external pub/sub backend carries events between processes.
 */

/** A change a `subscriptions/listen` stream can ask for. */
export type ServerEvent =
  | { kind: 'tools_list_changed' }
  | { kind: 'prompts_list_changed' }
  | { kind: 'resources_list_changed' }
  | { kind: 'resource_updated'; uri: string };

/** Fan-out between publishers and the handler's listen streams. */
export interface ServerEventBus {
  publish(event: ServerEvent): void;
  /** Registers `listener`; returns an idempotent unsubscribe. */
  subscribe(listener: (event: ServerEvent) => void): () => void;
}

/** Publishes each kind of change on a bus. */
export interface ServerNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/** The in-process bus: synchronous fan-out in subscription order; a listener that throws is reported to `onerror` and skipped. */
export class InMemoryServerEventBus implements ServerEventBus {
  readonly #listeners = new Set<(event: ServerEvent) => void>();
  readonly #onerror?: (error: Error) => void;

  constructor(onerror?: (error: Error) => void) {
    this.#onerror = onerror;
  }

  publish(event: ServerEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    // A wrapper per subscription, so one listener subscribed twice is two subscriptions.
    const entry = (event: ServerEvent) => listener(event);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }
}

/** A {@link ServerNotifier} over `bus`. */
export function createServerNotifier(bus: ServerEventBus): ServerNotifier {
  return {
    toolsChanged: () => bus.publish({ kind: 'tools_list_changed' }),
    promptsChanged: () => bus.publish({ kind: 'prompts_list_changed' }),
    resourcesChanged: () => bus.publish({ kind: 'resources_list_changed' }),
    resourceUpdated: (uri: string) => bus.publish({ kind: 'resource_updated', uri }),
  };
}

/** The notification an event is on the wire, or `undefined` for an event of no known kind. */
export function eventNotification(event: ServerEvent): { method: string; params?: { uri: string } } | undefined {
  switch (event?.kind) {
    case 'tools_list_changed':
      return { method: 'notifications/tools/list_changed' };
    case 'prompts_list_changed':
      return { method: 'notifications/prompts/list_changed' };
    case 'resources_list_changed':
      return { method: 'notifications/resources/list_changed' };
    case 'resource_updated':
      return typeof event.uri === 'string' ? { method: 'notifications/resources/updated', params: { uri: event.uri } } : undefined;
    default:
      return undefined;
  }
}

/** Whether `value` looks like a bus (`publish` and `subscribe`). */
export function isServerEventBus(value: unknown): value is ServerEventBus {
  const bus = value as Partial<ServerEventBus> | null;
  return typeof bus?.publish === 'function' && typeof bus.subscribe === 'function';
}
