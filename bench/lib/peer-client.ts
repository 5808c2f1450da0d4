import type { PeerMessage, PeerSpec } from '../peer';
import { benchFile } from './child';
import { LineChild } from './line-child';

/** A durable peer process (`bench/peer.ts`, on BullMQ or pg-boss), started and listening. */
export class PeerProcess {
  private constructor(
    private readonly child: LineChild,
    readonly origin: string,
  ) {}

  static async start(spec: PeerSpec): Promise<PeerProcess> {
    const child = new LineChild(`the durable peer (${spec.queue.kind})`, benchFile('peer.ts'));
    try {
      const { port } = await child.request<{ port: number }>({ op: 'start', ...spec } satisfies PeerMessage, 30_000);
      return new PeerProcess(child, `http://127.0.0.1:${port}`);
    } catch (error) {
      await child.close();
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The peer process's CPU time so far (user + system, every thread), in µs. */
  async cpuUs(): Promise<number> {
    return (await this.child.request<{ cpuUs: number }>({ op: 'cpu' } satisfies PeerMessage)).cpuUs;
  }

  /** Jobs in the peer's queue. */
  async jobs(): Promise<number> {
    return (await this.child.request<{ jobs: number }>({ op: 'jobs' } satisfies PeerMessage)).jobs;
  }

  /** Closes the server and removes the queue (the peer does both when its stdin ends). */
  close(): Promise<void> {
    return this.child.close(60_000);
  }
}
