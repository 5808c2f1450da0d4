import { join } from 'node:path';
import type { TracedMessage } from '../traced';
import { benchFile } from './child';
import type { DeliveryTarget } from './deliveries';
import { LineChild } from './line-child';

/** A runtime of `bench/traced.ts` (tracing on, or off), started and listening, with the given node flags. */
export class TracedProcess {
  private constructor(
    private readonly child: LineChild,
    readonly origin: string,
    readonly target: DeliveryTarget,
  ) {}

  /**
   * `tracing: false`: the same runtime with tracing off. `env`: more `OTEL_*` variables for its SDK (a
   * sampler). `checkout`: the `bench/traced.ts` of another checkout of intrabot (its own `src/`), for a
   * before/after comparison in one run.
   */
  static async start(
    nodeFlags: readonly string[],
    options: { tracing: boolean; env?: Readonly<Record<string, string>>; checkout?: string },
  ): Promise<TracedProcess> {
    const file = options.checkout === undefined ? benchFile('traced.ts') : join(options.checkout, 'bench', 'traced.ts');
    const label = options.checkout === undefined ? `the tracing-${options.tracing ? 'on' : 'off'} runtime` : `the runtime of ${options.checkout}`;
    const child = new LineChild(label, file, nodeFlags, options.env);
    try {
      const { port, target } = await child.request<{ port: number; target: DeliveryTarget }>(
        { op: 'start', tracing: options.tracing } satisfies TracedMessage,
        60_000,
      );
      return new TracedProcess(child, `http://127.0.0.1:${port}`, target);
    } catch (error) {
      await child.close();
      throw error;
    }
  }

  /** The process's CPU time so far (user + system, every thread), in µs. */
  async cpuUs(): Promise<number> {
    return (await this.child.request<{ cpuUs: number }>({ op: 'cpu' } satisfies TracedMessage)).cpuUs;
  }

  /** Switches the span helpers of a process started with tracing off or on again (the SDK stays loaded). */
  async setTracing(on: boolean): Promise<void> {
    await this.child.request({ op: 'tracing', on } satisfies TracedMessage);
  }

  /** What its collector stand-in received so far, after a flush. */
  async exported(): Promise<{ requests: number; bytes: number }> {
    return this.child.request({ op: 'exported' } satisfies TracedMessage, 60_000);
  }

  close(): Promise<void> {
    return this.child.close(60_000);
  }
}
