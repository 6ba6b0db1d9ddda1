// What Strapi changed between the version LaunchPad pins (strapi/package.json: 5.47.1 in its checkout of 2026-11) and
// the one Cairn follows (the interop tests' app, test/interop/strapi-app: 5.54.0) that shows in the front end's
// answers. Each rule takes out of Cairn's answers what the older reference cannot have, and only when the reference
// is older than the version that brought it: a copy of Cairn's recordings is compared, the count of what was taken out
// printed, so nothing is hidden. Anything else that differs still counts.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIGITS = { '\u200b': 0, '\u200c': 1, '\u200d': 2, '\ufeff': 3 };
const MARKER = /[\u200b\u200c\u200d\ufeff]{8,}$/u;

export const VERSION_DIFFERENCES = [
  {
    since: '5.54.0',
    // @strapi/core's content-source-maps.js: 5.54.0 adds `encodeBlocks`; 5.53.0 and before leave blocks unmarked.
    what: 'content source maps of blocks fields (5.54 marks the first text of each block; before, blocks had none)',
    // A string whose hidden marker (draft requests, `strapi-encode-source-maps: true`) names a blocks field.
    strip: (text) => {
      const marker = MARKER.exec(text)?.[0];
      return marker && sourceOf(marker).get('type') === 'blocks' ? text.slice(0, -marker.length) : text;
    },
  },
];

/** -1, 0 or 1 as version `a` is older than, the same as or newer than `b` (x.y.z, numbers only). */
export function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0) ? -1 : 1;
  return 0;
}

/**
 * `from` (Cairn's recordings) copied to `to` with the rules for a reference of version `reference` applied:
 * [{ rule, strings, answers }] for each rule that applies, with what it took out.
 */
export function alignWithReference(from, to, reference) {
  cpSync(from, to, { recursive: true });
  const applied = [];
  for (const rule of VERSION_DIFFERENCES.filter((r) => compareVersions(reference, r.since) < 0)) {
    const done = { rule, strings: 0, answers: 0 };
    for (const file of readdirSync(to).filter((f) => f.endsWith('.json'))) {
      const recording = JSON.parse(readFileSync(join(to, file), 'utf8'));
      const before = done.strings;
      recording.body = mapStrings(recording.body, (text) => {
        const out = rule.strip(text);
        if (out !== text) done.strings++;
        return out;
      });
      if (done.strings === before) continue;
      done.answers++;
      writeFileSync(join(to, file), JSON.stringify(recording, null, 1));
    }
    applied.push(done);
  }
  return applied;
}

function mapStrings(value, fn) {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}

/** The `strapiSource` a marker hides (four opening characters, then four base-4 digits a character). */
function sourceOf(marker) {
  const chars = Array.from(marker).slice(4);
  let json = '';
  for (let i = 0; i + 4 <= chars.length; i += 4) json += String.fromCharCode(parseInt(chars.slice(i, i + 4).map((c) => DIGITS[c]).join(''), 4));
  try {
    return new URLSearchParams(JSON.parse(json).strapiSource ?? '');
  } catch {
    return new URLSearchParams();
  }
}
