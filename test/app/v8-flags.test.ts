import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS, withServerFlags } from '../../src/app/v8-flags.js';

describe('V8 flags of server processes (cluster workers)', () => {
  it('adds the server flags to the parent process flags', () => {
    expect(withServerFlags(['--enable-source-maps'], '')).toEqual(['--enable-source-maps', ...SERVER_V8_FLAGS]);
    expect(withServerFlags([], '')).toEqual(SERVER_V8_FLAGS);
    expect(SERVER_V8_FLAGS).toContain('--max-semi-space-size=8');
  });

  it("keeps the user's own setting, from the command line or NODE_OPTIONS, in either spelling", () => {
    const others = SERVER_V8_FLAGS.filter((flag) => !flag.startsWith('--max-semi-space-size='));
    expect(withServerFlags(['--max-semi-space-size=32'], '')).toEqual(['--max-semi-space-size=32', ...others]);
    expect(withServerFlags(['--max_semi_space_size=4'], '')).toEqual(['--max_semi_space_size=4', ...others]);
    expect(withServerFlags([], '--max-old-space-size=512 --max-semi-space-size=16 --heap-growing-percent=100')).toEqual([]);
  });

  it('bin/cairn.js and the npm scripts start Node with the same flags', () => {
    const shebang = readFileSync(new URL('../../bin/cairn.js', import.meta.url), 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${SERVER_V8_FLAGS.join(' ')}`);
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
    for (const name of ['start', 'develop']) expect(scripts[name]).toContain(`node ${SERVER_V8_FLAGS.join(' ')} bin/cairn.js`);
  });
});
