import { IntrabotError } from '../errors';
import type { Clock, TimerHandle } from './clock';

/** A handler or job ran past its time limit: that bot's failure alone (retried or recorded per policy). */
export class TimeLimitError extends IntrabotError {
  constructor(what: string, ms: number) {
    super('handler_timeout', `${what} ran past its time limit of ${ms} ms`, { details: { what, ms } });
  }
}

export interface TimeLimitOptions {
  /** Ends the run early too (a scheduler that stops): the run's signal is aborted with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `fn` with an abort signal that fires after `ms` on the injected clock (no limit when `ms` is
 * undefined), rejecting with `TimeLimitError` then. A run that ignores its signal is abandoned, not
 * awaited: the limit is what the caller waits at most.
 *
 * @example
 * await withTimeLimit(clock, 30_000, 'kudos on.post.created', (signal) => handler(event, contextWith(signal)));
 */
export async function withTimeLimit<T>(
  clock: Clock,
  ms: number | undefined,
  what: string,
  fn: (signal: AbortSignal) => Promise<T>,
  options: TimeLimitOptions = {},
): Promise<T> {
  const controller = new AbortController();
  let timer: TimerHandle | undefined;
  let stop: (() => void) | undefined;
  const ended = new Promise<never>((_resolve, reject) => {
    const end = (reason: unknown): void => {
      controller.abort(reason);
      reject(reason);
    };
    if (ms !== undefined) timer = clock.setTimeout(() => end(new TimeLimitError(what, ms)), ms);
    const outer = options.signal;
    if (outer?.aborted) end(outer.reason);
    else if (outer) {
      const onAbort = (): void => end(outer.reason);
      outer.addEventListener('abort', onAbort, { once: true });
      stop = () => outer.removeEventListener('abort', onAbort);
    }
  });
  // the losing side of the race is nobody's error
  ended.catch(() => undefined);
  try {
    return await Promise.race([Promise.resolve().then(() => fn(controller.signal)), ended]);
  } finally {
    if (timer) clock.clearTimeout(timer);
    stop?.();
  }
}
