import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAppHooks } from '../../src/project/lifecycle.js';
import { ConfigError } from '../../src/errors/index.js';
import { folder, removeFolders } from './fixtures.js';

afterAll(removeFolders);

const COMMONJS = { 'package.json': '{ "type": "commonjs" }' };

describe('src/index lifecycle hooks', () => {
  it('an app without src/index has no hooks', async () => {
    expect(await loadAppHooks(folder({ 'src/api/.keep': '' }))).toEqual({});
  });

  it('CommonJS module.exports object, called as methods', async () => {
    const dir = folder({
      ...COMMONJS,
      'src/index.js': 'module.exports = { calls: [], register(ctx) { this.calls.push(["register", ctx.cairn]); return this.calls; }, bootstrap() { return "boot"; }, destroy() { return "bye"; } };',
    });
    const hooks = await loadAppHooks(dir);
    expect(hooks.register!({ cairn: 'c' })).toEqual([['register', 'c']]);
    expect(await hooks.bootstrap!({})).toBe('boot');
    expect(hooks.destroy!({})).toBe('bye');
  });

  it('ESM default export object, named exports (.mjs), and TypeScript', async () => {
    const esmDefault = await loadAppHooks(folder({ 'src/index.mjs': 'export default { bootstrap: () => "default" };' }));
    expect(esmDefault.bootstrap!({})).toBe('default');
    const named = await loadAppHooks(folder({ 'src/index.mjs': 'export function register() { return "named"; }' }));
    expect(named.register!({})).toBe('named');
    expect(named.bootstrap).toBeUndefined();
    const ts = await loadAppHooks(
      folder({ 'src/index.ts': 'type Ctx = { cairn: unknown };\nexport default { async bootstrap({ cairn }: Ctx): Promise<unknown> { return cairn; } };' }),
    );
    expect(await ts.bootstrap!({ cairn: 42 })).toBe(42);
    // As in Strapi, which runs the compiled dist/src/index.js.
    const tsDir = folder({ 'src/index.ts': 'export default { register: () => [__dirname, __filename] };' });
    expect((await loadAppHooks(tsDir)).register!({})).toEqual([join(tsDir, 'dist', 'src'), join(tsDir, 'dist', 'src', 'index.js')]);
    const cjsFile = await loadAppHooks(folder({ 'src/index.cjs': 'exports.bootstrap = () => "cjs";' }));
    expect(cjsFile.bootstrap!({})).toBe('cjs');
  });

  it('an empty module.exports is fine; unknown exports are ignored', async () => {
    expect(await loadAppHooks(folder({ ...COMMONJS, 'src/index.js': 'module.exports = {};' }))).toEqual({});
    expect(Object.keys(await loadAppHooks(folder({ ...COMMONJS, 'src/index.js': 'module.exports = { helper: 1, bootstrap() {} };' })))).toEqual(['bootstrap']);
  });

  it('broken entry files stop start-up with the file named', async () => {
    const fails = (files: Record<string, string>, pattern: RegExp) => expect(loadAppHooks(folder({ ...COMMONJS, ...files }))).rejects.toThrow(pattern);
    await fails({ 'src/index.js': 'module.exports = { bootstrap: 5 };' }, /src\/index\.js: bootstrap must be a function, not number/);
    await fails({ 'src/index.js': 'module.exports = () => {};' }, /src\/index\.js must export an object/);
    await fails({ 'src/index.js': 'module.exports = {\n  bootstrap() {\n};' }, /src\/index\.js: Unexpected .*\(line \d+\)/);
    await fails({ 'src/index.js': 'throw new Error("boom at load");' }, /src\/index\.js: boom at load/);
    await fails({ 'src/index.js': 'module.exports = {};', 'src/index.ts': 'export default {};' }, /keep one app entry file/);
    await expect(loadAppHooks(folder({ ...COMMONJS, 'src/index.js': 'module.exports = { register: "x" };' }))).rejects.toBeInstanceOf(ConfigError);
  });
});
