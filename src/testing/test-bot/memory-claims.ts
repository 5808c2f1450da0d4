import type { Clock } from '../../clock';
import type { Claims } from '../../store/claims';

/** Claims in memory for `testBot`'s one process: taken once until released or past their TTL on the fake clock. */
export class MemoryClaims implements Pick<Claims, 'claim' | 'release'> {
  private readonly held = new Map<string, number>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const until = this.held.get(key);
    if (until !== undefined && until > this.clock.now()) return false;
    this.held.set(key, this.clock.now() + ttlMs);
    return true;
  }

  async release(key: string): Promise<boolean> {
    return this.held.delete(key);
  }
}
