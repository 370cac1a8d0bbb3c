/**
 * A schema built on first use. `schemas.ts` exports a zod schema for every MCP definition;
 * building them all costs tens of milliseconds, which every `import 'ferrymcp'` would pay
 * although most programs use none of them. Each export is a proxy that builds its schema
 * the first time anything touches it and forwards everything to it from then on, so it
 * behaves as the schema itself (`safeParse`, `shape`, `instanceof`, use inside other zod
 * schemas). A reference that closes a cycle stays a `z.lazy`, so building never recurses
 * into a schema still being built.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let real: T | undefined;
  const schema = (): T => (real ??= build());
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // The proxy's own target has none of these properties, so each must be reported configurable.
      if (descriptor !== undefined) descriptor.configurable = true;
      return descriptor;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
