/**
 * `GET /_sandbox/requests`: recent API requests and answers, for debugging bots. Bearer tokens and
 * incoming-webhook tokens never enter the log.
 */
export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  token_name: string | null;
  request_body: string | null;
  response_body: string | null;
}

const MAX_BODY = 4_096;

export function redactPath(path: string): string {
  return path.replace(/\/incoming\/[^/?]+/, '/incoming/[redacted]');
}

export function clip(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null;
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? `<${body.length} bytes>` : JSON.stringify(body);
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…` : text;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly capacity = 500) {}

  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  list(limit = 100): LoggedRequest[] {
    return this.entries.slice(-limit).reverse();
  }

  clear(): void {
    this.entries = [];
  }
}
