/**
 * The official response cache store interface and its in-memory default
 * (`InMemoryResponseCacheStore`), for the client's `responseCacheStore` option.
 *
 * The entries live in the engine: `InMemoryResponseCacheStore` is core's in-memory store
 * under the official TypeScript policy (only `resources/read` entries count toward
 * `maxEntries`, default 512, the oldest inserted evicted first; the list results are
 * exempt), and its methods read and write that store synchronously, as the official
 * class does. Any other object with the official methods works too: the engine calls it
 * (awaiting what it returns) with a deadline, and a store that throws or is slow is a
 * cache miss, never a failed call. Keys, freshness and partitions are the engine's:
 * `partition` is opaque text, `value` a result's JSON text, `expiresAt` epoch milliseconds.
 */
import { invalidOption } from './errors.js';
import { NativeCacheStore } from './native.js';

/** A value or a promise of one. */
export type MaybePromise<T> = T | Promise<T>;

/** Whether an entry may be shared across authorization contexts. */
export type CacheScope = 'public' | 'private';

/** An entry's address: the method, its params key (the uri of `resources/read`, `''` for the lists) and the partition. */
export interface CacheKey {
  readonly method: string;
  readonly params?: string;
  readonly partition?: string;
}

/** A cached result: its JSON text, the store's write counter, when it goes stale and its scope. */
export interface CacheEntry {
  readonly value: string;
  readonly stamp: number;
  readonly expiresAt?: number;
  readonly scope?: CacheScope;
}

/** The official store interface (every method may return a promise). */
export interface ResponseCacheStore {
  get(key: CacheKey): MaybePromise<CacheEntry | undefined>;
  set(key: CacheKey, entry: { value: string; expiresAt?: number; scope?: CacheScope }): MaybePromise<number>;
  delete(key: CacheKey): MaybePromise<void>;
  evict(method: string): MaybePromise<void>;
  clear(): MaybePromise<void>;
}

/** Options of {@link InMemoryResponseCacheStore}. */
export interface InMemoryResponseCacheStoreOptions {
  /** The most `resources/read` entries held (default 512; `0`: no cap). */
  maxEntries?: number;
}

type Native = InstanceType<typeof NativeCacheStore>;

const natives = new WeakMap<object, Native>();

function keyOf(key: CacheKey): [string, string, string] {
  if (key === null || typeof key !== 'object' || typeof key.method !== 'string') throw new TypeError('a cache key is { method, params?, partition? }');
  return [key.method, key.params ?? '', key.partition ?? ''];
}

/** The official in-memory store; its entries live in the engine's store. */
export class InMemoryResponseCacheStore implements ResponseCacheStore {
  readonly #native: Native;

  constructor(options?: InMemoryResponseCacheStoreOptions) {
    for (const key of Object.keys(options ?? {})) {
      if (key !== 'maxEntries') invalidOption('InMemoryResponseCacheStore', `unknown option ${key}`);
    }
    const max = options?.maxEntries;
    if (max !== undefined && !(Number.isInteger(max) && max >= 0 && max <= 0xffffffff)) {
      invalidOption('InMemoryResponseCacheStore', `maxEntries must be a whole number >= 0 (got ${String(max)})`);
    }
    this.#native = NativeCacheStore.typescript(max);
    natives.set(this, this.#native);
  }

  /** How many entries are held. */
  get size(): number {
    return this.#native.size;
  }

  get(key: CacheKey): CacheEntry | undefined {
    const found = this.#native.get(...keyOf(key));
    if (found === null || found === undefined) return undefined;
    return { value: found.value, stamp: found.stamp, scope: found.scope as CacheScope, ...(found.expiresAt != null && { expiresAt: found.expiresAt }) };
  }

  set(key: CacheKey, entry: { value: string; expiresAt?: number; scope?: CacheScope }): number {
    if (entry === null || typeof entry !== 'object' || typeof entry.value !== 'string') throw new TypeError('a cache entry is { value: string, expiresAt?, scope? }');
    return this.#native.set(...keyOf(key), entry.value, entry.expiresAt, entry.scope);
  }

  delete(key: CacheKey): void {
    this.#native.delete(...keyOf(key));
  }

  evict(method: string): void {
    this.#native.evict(method);
  }

  clear(): void {
    this.#native.clear();
  }
}

const METHODS = ['get', 'set', 'delete', 'clear'] as const;

/**
 * @internal The engine's store for a `responseCacheStore` option value: the in-memory
 * class's own, or one calling the application's object (`get`, `set`, `delete` and `clear`
 * are required; `evict` only when called).
 */
export function nativeCacheStore(store: unknown): Native {
  const own = typeof store === 'object' && store !== null ? natives.get(store) : undefined;
  if (own !== undefined) return own;
  const object = store as Record<string, unknown> | null;
  if (object === null || typeof object !== 'object' || METHODS.some((name) => typeof object[name] !== 'function')) {
    invalidOption('ferrymcp Client', 'responseCacheStore must be a ResponseCacheStore (get, set, delete, evict, clear), such as an InMemoryResponseCacheStore');
  }
  const user = store as ResponseCacheStore;
  return NativeCacheStore.fromObject(async (op: string, argsJson: string) => {
    const args = JSON.parse(argsJson) as { key?: CacheKey; entry?: { value: string; expiresAt?: number; scope?: CacheScope }; method?: string };
    switch (op) {
      case 'get':
        return JSON.stringify((await user.get(args.key!)) ?? null);
      case 'set':
        await user.set(args.key!, args.entry!);
        return 'null';
      case 'delete':
        await user.delete(args.key!);
        return 'null';
      case 'evict':
        if (typeof user.evict !== 'function') throw new TypeError('responseCacheStore has no evict()');
        await user.evict(args.method!);
        return 'null';
      case 'clear':
        await user.clear();
        return 'null';
      default:
        throw new TypeError(`responseCacheStore: unknown operation ${op}`);
    }
  });
}
