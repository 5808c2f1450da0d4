import type { TracedMessage } from '../traced';
import { benchFile } from './child';
import type { DeliveryTarget } from './deliveries';
import { LineChild } from './line-child';

/** The tracing-on runtime (`bench/traced.ts`), started and listening, with the node flags of this process. */
export class TracedProcess {
  private constructor(
    private readonly child: LineChild,
    readonly origin: string,
    readonly target: DeliveryTarget,
  ) {}

  static async start(nodeFlags: readonly string[]): Promise<TracedProcess> {
    const child = new LineChild('the tracing-on runtime', benchFile('traced.ts'), nodeFlags);
    try {
      const { port, target } = await child.request<{ port: number; target: DeliveryTarget }>({ op: 'start' } satisfies TracedMessage, 60_000);
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

  /** What its collector stand-in received so far, after a flush. */
  async exported(): Promise<{ requests: number; bytes: number }> {
    return this.child.request({ op: 'exported' } satisfies TracedMessage, 60_000);
  }

  close(): Promise<void> {
    return this.child.close(60_000);
  }
}
