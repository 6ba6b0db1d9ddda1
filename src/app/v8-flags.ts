/**
 * V8 settings a Cairn server runs with. A young generation of 2 x 8 MB instead of V8's 2 x 16 MB: a request's
 * garbage (query specs, row strings, response text) dies young either way, and on the conformance benchmark the
 * smaller nursery ended runs 20-60 MB smaller in RSS (123-136 MB instead of 144-190 MB on SQLite) with equal or
 * better throughput (it stays in the CPU caches). V8 reads these only at process start: bin/cairn.js passes them
 * in its `#!` line, and the cluster primary passes them to its workers.
 */
export const SERVER_V8_FLAGS = ['--max-semi-space-size=8'];

/** `execArgv` plus the server flags the user did not set otherwise (their own NODE_OPTIONS or flags win). */
export function withServerFlags(execArgv: readonly string[], nodeOptions = process.env.NODE_OPTIONS ?? ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((flag) => flag.split('=')[0].replace(/_/g, '-'));
  return [...execArgv, ...SERVER_V8_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]))];
}
