export interface Answer {
  /** null: no answer (connection refused/reset, timeout). */
  status: number | null;
  body: unknown;
  error?: string;
}

/** Request timeout: well above Cairn's own limits (a 503 comes within acquireConnectionTimeout, 3 s). */
export const REQUEST_TIMEOUT_MS = 20_000;

/** One JSON request; never throws (a network error or timeout is an answer without status). */
export async function request(base: string, method: string, path: string, body?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Answer> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    const error = (parsed as { error?: { message?: string } } | null)?.error?.message;
    return { status: response.status, body: parsed, error: response.status >= 300 ? (error ?? text.slice(0, 200)) : undefined };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    return { status: null, body: null, error: e.cause?.code ?? e.cause?.message ?? e.name ?? String(error) };
  }
}
