import type { StoredSession } from '../database/sessions.js';

/**
 * What users-permissions' "refresh" mode records of a login and shows of a session (Strapi 5.54's `@strapi/utils`
 * sessions helpers): a device label guessed from the User-Agent, for people to recognise their sessions, never
 * for deciding anything.
 */

/** One session as `GET /auth/sessions` lists it: never a token nor a row id. */
export interface SessionEntry {
  id: string;
  deviceId: string | null;
  deviceName?: string;
  current: boolean;
  loginAt?: string;
  /** A rotation opens a new row: its creation is the session's last use. */
  lastActiveAt?: string;
}

/** A session's metadata at login: when, and the device's label when the User-Agent tells one. */
export function sessionMetadata(userAgent: string | undefined): Record<string, unknown> {
  const deviceName = deviceNameOf(userAgent);
  return { loginAt: new Date().toISOString(), ...(deviceName ? { deviceName } : {}) };
}

export function sessionEntry(session: StoredSession, currentSessionId: string | undefined): SessionEntry {
  const metadata = session.metadata ?? {};
  return {
    id: session.sessionId,
    deviceId: session.deviceId,
    deviceName: typeof metadata.deviceName === 'string' ? metadata.deviceName : undefined,
    current: Boolean(currentSessionId) && session.sessionId === currentSessionId,
    loginAt: typeof metadata.loginAt === 'string' ? metadata.loginAt : undefined,
    lastActiveAt: session.createdAt ?? undefined,
  };
}

/** Browsers by their User-Agent token, the more specific first (Chromium's forks carry a Chrome token too). */
const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:YaBrowser|Yowser)\//, 'Yandex Browser'],
  [/\bBrave\//, 'Brave'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

/** Systems by their token; iOS before macOS, whose "Mac OS X" iOS agents carry too. */
const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\bWindows NT\b/, 'Windows'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\b(?:Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** Only the start of an agent is read: the tokens come early, and a huge header costs no more. */
const AGENT_READ = 1024;

/** "Chrome on macOS", "Firefox", "Linux"... or undefined when neither is recognised. */
export function deviceNameOf(userAgent: string | undefined): string | undefined {
  if (typeof userAgent !== 'string' || !userAgent) return undefined;
  const agent = userAgent.slice(0, AGENT_READ);
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  return browser && system ? `${browser} on ${system}` : (browser ?? system);
}
