/**
 * V8 settings a Cairn server runs with. V8 reads these only at process start: bin/cairn.js passes them in its
 * `#!` line, and the cluster primary passes them to its workers.
 * - A young generation of 2 x 8 MB instead of V8's 2 x 16 MB: a request's garbage (query specs, row strings,
 *   response text) dies young either way, and on the conformance benchmark the smaller nursery ended runs 20-60 MB
 *   smaller in RSS with equal or better throughput (it stays in the CPU caches).
 * - The old generation may grow to 1.5x what survived the last full collection before the next one, instead of
 *   V8's adaptive factor of up to 4x. Under load on PostgreSQL, requests wait on the database with their objects
 *   alive, some get promoted, and with the adaptive factor the old generation reached 80-120 MB of mostly garbage
 *   (RSS 175-210 MB); with 1.5x RSS peaked at 120-145 MB, at no measurable cost in throughput (the live heap is
 *   ~25 MB, so a full collection is short and mostly concurrent).
 */
export const SERVER_V8_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=50'];

/** `execArgv` plus the server flags the user did not set otherwise (their own NODE_OPTIONS or flags win). */
export function withServerFlags(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((flag) => flag.split('=')[0].replace(/_/g, '-'));
  return [...execArgv, ...SERVER_V8_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]))];
}
