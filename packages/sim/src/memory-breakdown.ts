/**
 * Where a run's memory goes (packages/sim/README.md, "Benchmark"): the bytes of the typed
 * arrays reachable from each part of the network. Each part names its roots (the packet store,
 * every switch, every host…); a walk from one part's roots does not enter another part's, and a
 * buffer two parts share counts once, for the first. Typed arrays hold the simulator's bulk state
 * (packet columns, queues, per-port and per-host tables, series); the JS objects around them
 * are not counted here but in the heap figure beside them.
 */
export interface MemoryPart {
  readonly name: string;
  readonly bytes: number;
}

/** Typed-array bytes reachable from each part's roots, in order, each buffer counted once. */
export function typedArrayBytes(parts: readonly [string, readonly unknown[]][]): MemoryPart[] {
  const owner = new Map<unknown, string>();
  for (const [name, roots] of parts) {
    for (const root of roots) if (!owner.has(root)) owner.set(root, name);
  }
  const seenObjects = new Set<object>();
  const seenBuffers = new Set<ArrayBufferLike>();
  return parts.map(([name, roots]) => {
    let bytes = 0;
    const stack: unknown[] = [...roots];
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value !== "object" || value === null || seenObjects.has(value)) continue;
      const of = owner.get(value);
      if (of !== undefined && of !== name) continue;
      seenObjects.add(value);
      if (ArrayBuffer.isView(value)) {
        if (!seenBuffers.has(value.buffer)) {
          seenBuffers.add(value.buffer);
          bytes += value.buffer.byteLength;
        }
      } else if (value instanceof Map) {
        for (const [k, v] of value) stack.push(k, v);
      } else if (value instanceof Set || Array.isArray(value)) {
        for (const v of value) stack.push(v);
      } else {
        for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
      }
    }
    return { name, bytes };
  });
}
