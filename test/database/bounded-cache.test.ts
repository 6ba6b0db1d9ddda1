import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/database/bounded-cache.js';

describe('BoundedCache', () => {
  it('keeps what was used recently and drops the least recently used first', () => {
    const cache = new BoundedCache<number>(4);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3); // a and b move to the older generation
    expect(cache.get('a')).toBe(1); // back to the recent one
    cache.set('d', 4); // recent (c, a) becomes the older generation: b goes
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.get('d')).toBe(4);
  });

  it('never holds more than its capacity', () => {
    const cache = new BoundedCache<number>(10);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, i);
      cache.get(`k${i >> 1}`);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    expect(cache.get('k999')).toBe(999);
  });

  it('a capacity under 2 still caches one entry', () => {
    const cache = new BoundedCache<string>(1);
    cache.set('x', 'X');
    expect(cache.get('x')).toBe('X');
    cache.set('y', 'Y');
    expect(cache.get('y')).toBe('Y');
    expect(cache.size).toBeLessThanOrEqual(2);
  });

  it('peek reads without counting as a use; drops counts the generations dropped', () => {
    const cache = new BoundedCache<number>(4);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.drops).toBe(0);
    cache.set('c', 3); // a and b become the older generation: nothing dropped yet
    expect(cache.drops).toBe(0);
    expect(cache.peek('a')).toBe(1); // still older: not moved back
    cache.set('d', 4); // recent: c, d
    expect(cache.drops).toBe(0);
    cache.set('e', 5); // the older generation (a, b) goes
    expect(cache.drops).toBe(1);
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('c')).toBe(3);
    expect(cache.peek('zz')).toBeUndefined();
  });
});
