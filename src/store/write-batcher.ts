export interface WriteBatcherOptions<I, O> {
  /**
   * Runs one batch in one transaction and returns one result per item: synchronously (better-sqlite3), or
   * as a promise (one Redis script call). It is started at once when the batch is flushed.
   */
  commit: (items: I[]) => O[] | Promise<O[]>;
  /**
   * How long the first write of a batch waits for company. 0 (the default): until the event loop has
   * taken in everything already received (setImmediate), the classic group commit: under load, every
   * request read in one loop turn shares a commit; when idle, a write waits for nothing.
   */
  windowMs: number;
  /** A batch this large is committed at once. */
  maxBatch: number;
  /**
   * How much a batch may weigh (`weightOf` each item, e.g. its bytes), so a few large writes do not make
   * one long transaction: an item that would take the batch past it starts the next batch (an item heavier
   * than this goes alone). Unlimited without one.
   */
  maxWeight?: number;
  weightOf?: (item: I) => number;
  /** Told after each committed batch (metrics, tests). */
  onCommit?: (size: number) => void;
}

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups writes that arrive within a few milliseconds into one transaction: the webhook receiver's
 * acknowledgement waits for a commit, and one commit per request (an fsync in SQLite, a round trip and a
 * socket write each way with Redis) would cap ingest far below a bare route. Each caller's promise settles
 * only once its batch has committed (or failed).
 *
 * The window is real time (a Node timer), not the injected clock: it is a throughput device, not a rule,
 * and a frozen test clock must not stall the inbox.
 */
export class WriteBatcher<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private weight = 0;
  private timer: { cancel: () => void } | undefined;
  /** Asynchronous commits not answered yet (`drain` waits for them). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: WriteBatcherOptions<I, O>) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const weight = this.options.weightOf?.(item) ?? 0;
      const maxWeight = this.options.maxWeight ?? Infinity;
      if (this.waiting.length > 0 && this.weight + weight > maxWeight) this.flush();
      this.waiting.push({ item, resolve, reject });
      this.weight += weight;
      if (this.waiting.length >= this.options.maxBatch || this.weight >= maxWeight) this.flush();
      else this.timer ??= this.schedule();
    });
  }

  private schedule(): { cancel: () => void } {
    if (this.options.windowMs <= 0) {
      const immediate = setImmediate(() => this.flush());
      return { cancel: () => clearImmediate(immediate) };
    }
    const timeout = setTimeout(() => this.flush(), this.options.windowMs);
    return { cancel: () => clearTimeout(timeout) };
  }

  /** Commits whatever waits now (an asynchronous commit is started, not awaited: see `drain`). */
  flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    this.weight = 0;
    if (batch.length === 0) return;
    let results: O[] | Promise<O[]>;
    try {
      results = this.options.commit(batch.map((w) => w.item));
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    if (!(results instanceof Promise)) {
      this.settle(batch, results);
      return;
    }
    const answered = results.then(
      (settled) => this.settle(batch, settled),
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
    this.inFlight.add(answered);
    void answered.finally(() => this.inFlight.delete(answered));
  }

  /** Commits whatever waits and resolves once every commit started so far has answered (before a connection closes). */
  async drain(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.inFlight]);
  }

  private settle(batch: Waiting<I, O>[], results: O[]): void {
    // the callers are answered even if the metrics callback throws
    try {
      this.options.onCommit?.(batch.length);
    } finally {
      batch.forEach((w, i) => w.resolve(results[i] as O));
    }
  }
}
