/**
 * Runs before each upstream test file: makes `require('api-tests/...')` (and the packages the files require, from
 * outside the repository) resolve to the adapter and the repository's node_modules, gives jest's globals and
 * Strapi's matchers, and stops the file's Cairn at the end.
 */
import Module, { createRequire } from 'node:module';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeEach, chai, describe, expect, it, test, vi } from 'vitest';

const here = import.meta.dirname;
// Upstream files write beside their working directory (Strapi runs them in a generated test app; the nested
// dynamic-zone experiment writes `.agents/work/...`): here that is a folder of the run's temp root, never the repository.
process.chdir(mkdtempSync(join(tmpdir(), 'strapi-suite-cwd-')));
const repo = resolve(here, '../..');
const suiteDir = process.env.STRAPI_SUITE_DIR ?? '';
const requireFromRepo = createRequire(join(repo, 'package.json'));
const { OutOfScope } = requireFromRepo(join(here, 'harness/out-of-scope.js')) as { OutOfScope: new (reason: string) => Error };
const isWithin = (folder: string, path: string) => !relative(folder, path).startsWith('..');

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
const internal = Module as unknown as { _resolveFilename: Resolve };
const original = internal._resolveFilename;
let fromRepo = false;
internal._resolveFilename = function (request, parent, ...rest) {
  const harness = /^api-tests\/(.+)$/.exec(request);
  if (harness) {
    const upstream = join(suiteDir, 'packages/utils/api-tests', `${harness[1]}.js`);
    if (harness[1] === 'generators' && existsSync(upstream)) return upstream;
    return join(here, 'harness/api-tests', `${harness[1]}.js`);
  }
  try {
    return original.call(this, request, parent, ...rest);
  } catch (error) {
    // A file of the suite requiring one of strapi/strapi's files that the suite's folder does not hold (a fixture the
    // copy lacks, or Strapi's own source in packages/): the file cannot load, for a reason that is not Cairn's.
    const from = (parent as { filename?: string } | undefined)?.filename;
    if (request.startsWith('.') && suiteDir && from && isWithin(suiteDir, from)) {
      const target = resolve(dirname(from), request);
      if (isWithin(suiteDir, target)) {
        // A folder required as a module: its index.js is what is missing.
        const where = relative(suiteDir, existsSync(target) && statSync(target).isDirectory() ? join(target, 'index.js') : target);
        const what = where.startsWith(`packages${sep}`) ? "Strapi's own source" : 'a file of strapi/strapi';
        throw new OutOfScope(`the file cannot load: it requires ${where}, ${what} that the suite's folder does not hold`);
      }
    }
    // The upstream files live outside the repository: their packages (lodash, qs, supertest) are the repository's.
    // (Resolving from the repository comes back through this function: once only, or a package installed nowhere
    // would recurse until the stack overflows.)
    if (request.startsWith('.') || request.startsWith('/') || fromRepo) throw error;
    fromRepo = true;
    try {
      return requireFromRepo.resolve(request);
    } catch (notInstalled) {
      // Strapi's own packages (`jest.mock(require.resolve('@strapi/provider-upload-local'))`) are Strapi's process.
      if (request.startsWith('@strapi/')) throw new OutOfScope(`${request} is a package of Strapi's own process`);
      // Its route schemas' zod, required while a file's tests are collected: the tests that use it are out of scope.
      if (request === 'zod' || request.startsWith('zod/')) return join(here, 'harness/zod.js');
      throw notInstalled;
    } finally {
      fromRepo = false;
    }
  }
};

(globalThis as Record<string, unknown>).jest = vi;

// Strapi's test utilities keep `it.each` detached (`testInTransaction.each = it.each`), as jest allows; vitest's
// `each` needs its `this`: bound here, on the globals the files use.
for (const api of [it, test, describe] as unknown as Array<Record<string, unknown>>) {
  for (const key of ['each', 'for', 'skipIf', 'runIf']) {
    const method = api[key];
    if (typeof method === 'function') api[key] = method.bind(api);
  }
}

// jest's `toThrow(errorObject)`, which Strapi's files are written for, compares the message only; vitest's compares the
// errors as objects (their classes and own properties too). The upstream expectation keeps jest's meaning.
for (const name of ['toThrow', 'toThrowError']) {
  chai.util.overwriteMethod(chai.Assertion.prototype, name, (original: (...args: unknown[]) => unknown) =>
    function (this: object, expected?: unknown, ...rest: unknown[]) {
      if (expected instanceof Error) return original.call(this, new RegExp(`^${expected.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), ...rest);
      return original.call(this, expected, ...rest);
    },
  );
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

expect.extend({
  toBeISODate(received: unknown) {
    const pass = typeof received === 'string' && ISO_DATE.test(received) && !Number.isNaN(Date.parse(received));
    return { pass, message: () => `expected ${this.utils.printReceived(received)} ${pass ? 'not ' : ''}to be an ISO date` };
  },
  stringOrNull(received: unknown) {
    const pass = received === null || typeof received === 'string';
    return { pass, message: () => `expected ${this.utils.printReceived(received)} ${pass ? 'not ' : ''}to be a string or null` };
  },
});

// A failed test's report names its last request and the answer (see the reporter).
beforeEach((context) => {
  const app = requireFromRepo(join(here, 'harness/app.js')) as { state: { lastExchange?: string } };
  app.state.lastExchange = undefined;
  context.onTestFailed(() => {
    if (app.state.lastExchange) (context.task.meta as Record<string, unknown>).lastExchange = app.state.lastExchange;
  });
});

afterAll(async () => {
  const app = requireFromRepo(join(here, 'harness/app.js')) as {
    state: { models: Map<string, unknown> };
    stop(): Promise<void>;
    discardIfEmpty(): Promise<void>;
  };
  app.state.models.clear();
  await app.discardIfEmpty();
});
