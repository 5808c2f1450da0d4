import type { LoadReport, LoadSpec } from '../load';
import { benchFile } from './child';
import { LineChild } from './line-child';

/** Drives the load generator process (`bench/load.ts`): one phase at a time, a spec line out and a report line back. */
export class LoadGenerator {
  private readonly child = new LineChild('the load generator', benchFile('load.ts'));

  phase(spec: LoadSpec, timeoutMs = 60_000): Promise<LoadReport> {
    return this.child.request<LoadReport>(spec, timeoutMs);
  }

  close(): Promise<void> {
    return this.child.close();
  }
}
