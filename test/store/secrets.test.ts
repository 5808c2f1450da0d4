import { describe, expect, it } from 'vitest';
import { newSalt } from '../../src/store/secret-box';
import { createSecrets, type SealedSecretStorage } from '../../src/store/secrets';

/** A storage in memory whose salt read fails the first `failures` times (the store briefly down). */
function flakyStorage(failures: number): SealedSecretStorage & { saltReads: number } {
  const sealed = new Map<string, string>();
  const salt = newSalt();
  const storage = {
    saltReads: 0,
    read: async (name: string) => sealed.get(name),
    write: async (name: string, value: string) => void sealed.set(name, value),
    writeIfAbsent: async (name: string, value: string) => {
      if (!sealed.has(name)) sealed.set(name, value);
      return sealed.get(name)!;
    },
    remove: async (name: string) => sealed.delete(name),
    names: async () => [...sealed.keys()].sort(),
    salt: async () => {
      storage.saltReads += 1;
      if (storage.saltReads <= failures) throw new Error('store unreachable');
      return salt;
    },
  };
  return storage;
}

describe('secrets', () => {
  it('tries the store again after a failed first key derivation instead of failing until restart', async () => {
    const storage = flakyStorage(1);
    const secrets = createSecrets(storage, 'a passphrase for the test');
    await expect(secrets.put('token:t1', 'svc_abc')).rejects.toThrow('store unreachable');
    await secrets.put('token:t1', 'svc_abc');
    expect(await secrets.get('token:t1')).toBe('svc_abc');
    expect(storage.saltReads).toBe(2);
  });
});
