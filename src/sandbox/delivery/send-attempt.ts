import { request } from 'undici';

/** spec: Events, Outgoing webhooks — "the per-attempt timeout is 3 seconds" (real time: it is the network's). */
export const ATTEMPT_TIMEOUT_MS = 3_000;

export interface AttemptResult {
  ok: boolean;
  status_code: number | null;
  /** `timeout`, a network error code such as `ECONNREFUSED`, or null when an answer came. */
  error: string | null;
}

export interface AttemptRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

/** POSTs one delivery; any 2xx is success, anything else (or no answer in time) is a failure to retry. */
export async function sendAttempt(input: AttemptRequest): Promise<AttemptResult> {
  try {
    const response = await request(input.url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      signal: AbortSignal.timeout(input.timeoutMs ?? ATTEMPT_TIMEOUT_MS),
    });
    await response.body.dump();
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return { ok, status_code: response.statusCode, error: null };
  } catch (error) {
    return { ok: false, status_code: null, error: describeFailure(error) };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
    return error.message || error.name;
  }
  return 'delivery failed';
}

/** The `status` text of a ping answer: `delivered`, `failed: 500`, `failed: timeout`. */
export function attemptStatusText(result: AttemptResult): string {
  if (result.ok) return 'delivered';
  return `failed: ${result.status_code ?? result.error ?? 'unknown'}`;
}
