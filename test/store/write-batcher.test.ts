import { describe, expect, it } from 'vitest';
import { WriteBatcher } from '../../src/store/write-batcher';

describe('WriteBatcher', () => {
  it('commits writes submitted in one event-loop turn together and gives each caller its own result', async () => {
    const batches: number[][] = [];
    const batcher = new WriteBatcher<number, number>({ commit: (items) => (batches.push(items), items.map((n) => n * 2)), windowMs: 0, maxBatch: 100 });
    const results = await Promise.all([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('commits at once when a batch is full', async () => {
    const batches: number[][] = [];
    const batcher = new WriteBatcher<number, number>({ commit: (items) => (batches.push(items), items), windowMs: 60_000, maxBatch: 2 });
    await Promise.all([batcher.submit(1), batcher.submit(2)]);
    expect(batches).toEqual([[1, 2]]);
  });

  it('rejects every caller of a batch whose commit failed, and goes on with the next batch', async () => {
    let fail = true;
    const batcher = new WriteBatcher<number, number>({
      commit: (items) => {
        if (fail) throw new Error('disk full');
        return items;
      },
      windowMs: 0,
      maxBatch: 100,
    });
    const first = [batcher.submit(1), batcher.submit(2)];
    await expect(Promise.all(first)).rejects.toThrow('disk full');
    await expect(first[1]).rejects.toThrow('disk full');
    fail = false;
    await expect(batcher.submit(3)).resolves.toBe(3);
  });

  it('settles each caller once an asynchronous commit (one Redis script call) has answered, or rejects them all when it failed', async () => {
    const batches: number[][] = [];
    let fail = false;
    const batcher = new WriteBatcher<number, number>({
      commit: async (items) => {
        batches.push(items);
        await new Promise((resolve) => setImmediate(resolve));
        if (fail) throw new Error('Redis went away');
        return items.map((n) => n + 10);
      },
      windowMs: 0,
      maxBatch: 100,
    });
    expect(await Promise.all([1, 2].map((n) => batcher.submit(n)))).toEqual([11, 12]);
    fail = true;
    const failed = [batcher.submit(3), batcher.submit(4)];
    await expect(failed[0]).rejects.toThrow('Redis went away');
    await expect(failed[1]).rejects.toThrow('Redis went away');
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('starts a new batch before one would weigh more than its limit, and sends an item heavier than the limit alone', async () => {
    const batches: number[][] = [];
    const batcher = new WriteBatcher<number, number>({
      commit: (items) => (batches.push(items), items),
      windowMs: 0,
      maxBatch: 100,
      maxWeight: 1_000,
      weightOf: (n) => n,
    });
    await Promise.all([600, 300, 200, 5_000, 100].map((n) => batcher.submit(n)));
    expect(batches).toEqual([[600, 300], [200], [5_000], [100]]);
  });

  it('drains: resolves once every asynchronous commit started so far has answered, the waiting ones included', async () => {
    const answered: number[] = [];
    const batcher = new WriteBatcher<number, number>({
      commit: async (items) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        answered.push(...items);
        return items;
      },
      windowMs: 60_000,
      maxBatch: 2,
    });
    const sent = [1, 2, 3].map((n) => batcher.submit(n));
    await batcher.drain();
    expect(answered.sort()).toEqual([1, 2, 3]);
    expect(await Promise.all(sent)).toEqual([1, 2, 3]);
  });
});
