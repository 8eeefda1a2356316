/**
 * Runs reads one after another and answers their results in order, as `Promise.all` would.
 * For reads that may run inside a transaction: its one connection takes one query at a
 * time (node-postgres queues overlapping ones, and warns that it will stop doing so).
 */
export async function inTurn<T extends unknown[]>(
  ...reads: { [K in keyof T]: () => Promise<T[K]> }
): Promise<T> {
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}
