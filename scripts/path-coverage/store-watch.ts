import type { Store } from '../../src/store/store';

/** What a queue (the inbox or the outbox) did since the watch was last reset. */
export interface QueueActivity {
  /** Leases handed out. */
  reserved: number;
  /** Leases given back (completed, retried, deferred, set aside, dead-lettered). */
  closed: number;
  /** Leases out now. */
  open: number;
  /** Reserve calls not yet answered. */
  asking: number;
  /** The last answered reserve found nothing, and no lease was given back after it: the lanes went idle. */
  idle: boolean;
}

const TAKES = new Set<PropertyKey>(['reserve', 'reserveMany']);
const GIVES_BACK = new Set<PropertyKey>(['complete', 'retry', 'defer', 'deadLetter', 'setAside']);
const QUEUES = ['inbox', 'outbox'] as const;
type QueueName = (typeof QUEUES)[number];

/**
 * Watches the runtime's inbox and outbox from outside: the store handed to the runtime is this proxy,
 * whose code lives here (not under `src/`, so it is not counted). It tells when the work a trigger set
 * in motion has played out, without polling the store (which would run store code inside the window).
 */
export class StoreWatch {
  readonly activity: Record<QueueName, QueueActivity> = { inbox: fresh(), outbox: fresh() };
  readonly store: Store;

  constructor(inner: Store) {
    const parts = new Map<PropertyKey, unknown>();
    this.store = new Proxy(inner, {
      get: (target, prop) => {
        const value: unknown = Reflect.get(target, prop, target);
        if ((prop === 'inbox' || prop === 'outbox') && typeof value === 'object' && value !== null) {
          if (!parts.has(prop)) parts.set(prop, this.watchQueue(prop, value));
          return parts.get(prop);
        }
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** Forgets what was seen (the start of a window); leases still out stay counted. */
  reset(): void {
    for (const name of QUEUES) {
      const a = this.activity[name];
      this.activity[name] = { ...fresh(), open: a.open, asking: a.asking, idle: a.idle };
    }
  }

  /** Every queue that handed out a lease since the reset has given all back and gone idle. */
  settled(): boolean {
    return QUEUES.every((name) => {
      const a = this.activity[name];
      return a.reserved === 0 || (a.open === 0 && a.asking === 0 && a.idle);
    });
  }

  /** No lease is out and no reserve is waiting for its answer. */
  quiet(): boolean {
    return QUEUES.every((name) => this.activity[name].open === 0 && this.activity[name].asking === 0);
  }

  private watchQueue(name: QueueName, queue: object): object {
    return new Proxy(queue, {
      get: (target, prop) => {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        const fn = value as (...args: unknown[]) => unknown;
        if (TAKES.has(prop)) return (...args: unknown[]) => this.take(name, Promise.resolve(fn.apply(target, args)));
        if (GIVES_BACK.has(prop)) return (...args: unknown[]) => this.giveBack(name, Promise.resolve(fn.apply(target, args)));
        return fn.bind(target);
      },
    });
  }

  private async take(name: QueueName, answer: Promise<unknown>): Promise<unknown> {
    this.activity[name].asking++;
    try {
      const leases = await answer;
      const got = Array.isArray(leases) ? leases.length : leases ? 1 : 0;
      const a = this.activity[name];
      a.reserved += got;
      a.open += got;
      if (got === 0 && a.open === 0) a.idle = true;
      return leases;
    } finally {
      this.activity[name].asking--;
    }
  }

  private async giveBack(name: QueueName, answer: Promise<unknown>): Promise<unknown> {
    try {
      return await answer;
    } finally {
      const a = this.activity[name];
      a.open = Math.max(0, a.open - 1);
      a.closed++;
      a.idle = false;
    }
  }
}

function fresh(): QueueActivity {
  return { reserved: 0, closed: 0, open: 0, asking: 0, idle: false };
}
