import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS, withServerFlags } from '../../src/app/v8-flags.js';

describe('V8 flags of server processes (cluster workers)', () => {
  it('adds the server flags to the parent process flags', () => {
    expect(withServerFlags(['--enable-source-maps'], '')).toEqual(['--enable-source-maps', ...SERVER_V8_FLAGS]);
    expect(withServerFlags([], '')).toEqual(['--max-semi-space-size=8']);
  });

  it("keeps the user's own setting, from the command line or NODE_OPTIONS, in either spelling", () => {
    expect(withServerFlags(['--max-semi-space-size=32'], '')).toEqual(['--max-semi-space-size=32']);
    expect(withServerFlags(['--max_semi_space_size=4'], '')).toEqual(['--max_semi_space_size=4']);
    expect(withServerFlags([], '--max-old-space-size=512 --max-semi-space-size=16')).toEqual([]);
  });
});
