import { describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { FRESH_READ_GAP_MS, SigningSecrets } from '../../src/runtime/rotation/signing-secrets';

/** A secrets store that counts its reads. */
function countingStore(initial: Record<string, string>) {
  const values = new Map(Object.entries(initial));
  const store = {
    reads: 0,
    set: (name: string, value: string) => values.set(name, value),
    secrets: {
      get: async (name: string) => {
        store.reads += 1;
        return values.get(name);
      },
    },
  };
  return store;
}

const CURRENT = webhookSecretName('sandbox', 'ops');

describe('signing secrets read again for a signature that matched none', () => {
  it('reads the store at most once per gap however many forged deliveries ask (each read is two gets)', async () => {
    const store = countingStore({ [CURRENT]: 'secret-1' });
    const secrets = new SigningSecrets({ store: store as never, configured: () => [] });
    await secrets.read('sandbox', 'ops');
    store.reads = 0;
    // forged deliveries one after another, each asking for a fresh read, for a while
    const started = performance.now();
    let asked = 0;
    while (performance.now() - started < 2.5 * FRESH_READ_GAP_MS) {
      await secrets.read('sandbox', 'ops', { fresh: true });
      asked += 1;
    }
    const elapsed = performance.now() - started;
    expect(asked).toBeGreaterThan(1);
    expect(store.reads / 2).toBeLessThanOrEqual(Math.floor(elapsed / FRESH_READ_GAP_MS) + 1);
  });

  it('shares one read among the deliveries that ask at once', async () => {
    const store = countingStore({ [CURRENT]: 'secret-1' });
    const secrets = new SigningSecrets({ store: store as never, configured: () => [] });
    await Promise.all(Array.from({ length: 20 }, () => secrets.read('sandbox', 'ops', { fresh: true })));
    expect(store.reads).toBe(2);
  });

  it('still learns a secret stored right after a read: the next fresh read waits for its turn instead of being skipped', async () => {
    const store = countingStore({ [CURRENT]: 'secret-1' });
    const secrets = new SigningSecrets({ store: store as never, configured: () => [] });
    expect(await secrets.read('sandbox', 'ops', { fresh: true })).toEqual(['secret-1']);
    // a rotation on another replica stores the new endpoint's secret; its first delivery comes at once
    store.set(CURRENT, 'secret-2');
    expect(await secrets.read('sandbox', 'ops', { fresh: true })).toEqual(['secret-2']);
  });
});
