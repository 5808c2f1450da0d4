import pg from 'pg';

type Listener = (queue: 'inbox' | 'outbox') => void;

/** How long a lost LISTEN connection waits before it connects again. */
const RECONNECT_MS = 1_000;

/**
 * Wake-ups across replicas by LISTEN/NOTIFY: an accept or an enqueue sends a NOTIFY on the schema's
 * channel in its own transaction (so it arrives once the work is committed), and `add` LISTENs on a
 * connection of its own, outside the pool, opened with the first listener and closed with the last.
 * Best effort: a connection that drops is opened again a second later, and what was said meanwhile is
 * found by the workers' polling, which stays on. Through PgBouncer in transaction mode LISTEN never
 * hears anything (the server connection is not kept); the polling then carries every wake-up.
 */
export class PostgresWakeups {
  /** The NOTIFY channel; an identifier is at most 63 bytes (two schemas sharing one only wake each other for nothing). */
  readonly channel: string;
  private readonly listeners = new Set<Listener>();
  private client: pg.Client | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    schema: string,
  ) {
    this.channel = `intrabot_${schema}`.slice(0, 63);
  }

  /** Calls `listener` with the queue that has new work; returns the unsubscribe. */
  add(listener: Listener): () => void {
    this.listeners.add(listener);
    if (!this.client && !this.retry && !this.closed) void this.listen();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) void this.stop();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 3_000 });
    this.client = client;
    client.on('notification', (message) => {
      const queue = message.payload;
      if (queue === 'inbox' || queue === 'outbox') for (const listener of this.listeners) listener(queue);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch {
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.closed || this.listeners.size === 0) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed && this.listeners.size > 0) void this.listen();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  private async stop(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
