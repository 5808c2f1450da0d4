import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SandboxDb } from '../../../src/sandbox/state/sandbox-db';

describe('SandboxDb.derived', () => {
  const db = new SandboxDb();
  afterEach(() => db.clear());
  afterAll(() => db.close());

  it('works a value out once for a run of reads, and again after any write', () => {
    db.insert('users', { name: 'Ada' });
    let computed = 0;
    const names = () =>
      db.derived('names', () => {
        computed++;
        return db.all<{ id: number; name: string }>('users').map((u) => u.name);
      });
    expect([names(), names()]).toEqual([['Ada'], ['Ada']]);
    expect(computed).toBe(1);
    db.update('users', 1, { name: 'Ada Lovelace' });
    expect(names()).toEqual(['Ada Lovelace']);
    db.insert('users', { name: 'Ben' });
    expect(names()).toEqual(['Ada Lovelace', 'Ben']);
    db.remove('users', 1);
    expect(names()).toEqual(['Ben']);
    db.setMeta('seed', 'large');
    names();
    expect(computed).toBe(5);
  });
});
