import type { Clock, TimerHandle } from '../clock';
import { CONSOLE_SECTIONS, type ConsoleSection } from './console-views';

/** One open stream: where its events go, and whether it may still receive them. */
export interface StreamSubscriber {
  /** Writes one server-sent event. */
  send(event: string, data: string): void;
  /** False once the stream must end (its session ended); it is then closed. */
  allowed(): boolean;
  close(): void;
}

export interface ConsoleStreamOptions {
  clock: Clock;
  /** Each section as JSON text, already scrubbed of secrets. */
  read: (section: ConsoleSection) => Promise<string>;
  /** How often the sections are read while someone watches (default 1 s). */
  intervalMs?: number;
  onError?: (section: ConsoleSection, error: unknown) => void;
}

interface Watcher {
  subscriber: StreamSubscriber;
  /** What this watcher was last sent, per section: only changes go out. */
  sent: Map<ConsoleSection, string>;
}

/**
 * The live side of the console (server-sent events): while anyone watches, every section is read
 * once per interval, whoever watches, and each watcher is sent the sections whose data changed since
 * it was last sent them (all of them when it joins), then the runtime's clock. Nothing is read while
 * nobody watches. An action taken in the console (a replay, a run) asks for a read at once (`nudge`).
 */
export class ConsoleStream {
  private readonly watchers = new Set<Watcher>();
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly options: ConsoleStreamOptions) {}

  /** Adds a watcher and sends it every section at once; answers how to remove it. */
  subscribe(subscriber: StreamSubscriber): () => void {
    const watcher: Watcher = { subscriber, sent: new Map() };
    this.watchers.add(watcher);
    this.nudge();
    return () => {
      this.watchers.delete(watcher);
      if (this.watchers.size === 0) this.stopTimer();
    };
  }

  /** Reads and sends now (after an action), rather than at the next interval. */
  nudge(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.stopTimer();
    this.running = this.tick().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      } else this.schedule();
    });
  }

  /** Ends every stream and stops reading (the runtime is closing). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopTimer();
    await this.running;
    for (const watcher of this.watchers) watcher.subscriber.close();
    this.watchers.clear();
  }

  get size(): number {
    return this.watchers.size;
  }

  private schedule(): void {
    if (this.closed || this.watchers.size === 0) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.nudge();
    }, this.options.intervalMs ?? 1_000);
  }

  private stopTimer(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    this.dropEnded();
    if (this.watchers.size === 0) return;
    const texts = await Promise.all(
      CONSOLE_SECTIONS.map(async (section) => {
        try {
          return [section, await this.options.read(section)] as const;
        } catch (error) {
          this.options.onError?.(section, error);
          return [section, undefined] as const;
        }
      }),
    );
    const clock = `{"now":${this.options.clock.now()}}`;
    for (const watcher of this.watchers) {
      for (const [section, text] of texts) {
        if (text === undefined) continue;
        const key = withoutNow(text);
        if (watcher.sent.get(section) === key) continue;
        watcher.sent.set(section, key);
        watcher.subscriber.send('section', `{"section":${JSON.stringify(section)},"data":${text}}`);
      }
      // every tick: the page's relative times follow the runtime's clock, and the connection stays busy through proxies
      watcher.subscriber.send('clock', clock);
    }
  }

  private dropEnded(): void {
    for (const watcher of this.watchers) {
      if (watcher.subscriber.allowed()) continue;
      watcher.subscriber.send('signed-out', '{}');
      watcher.subscriber.close();
      this.watchers.delete(watcher);
    }
  }
}

/** A view's text without its leading `now`: a section whose data did not change is not sent again. */
function withoutNow(text: string): string {
  return text.replace(/^\{"now":[-0-9.e+]+,?/, '{');
}
