import { describe, expect, it } from 'vitest';
import type { ContractContext } from './contract-kit';

export function dataContract(ctx: ContractContext): void {
  describe('key-value', () => {
    it('keeps namespaces isolated', async () => {
      await ctx.store.kv('bot:a').set('cursor', { since: '2026-01-01' });
      await ctx.store.kv('bot:a:x').set('y', 1);
      expect(await ctx.store.kv('bot:b').get('cursor')).toBeUndefined();
      expect(await ctx.store.kv('bot:a').get('cursor')).toEqual({ since: '2026-01-01' });
      expect(await ctx.store.kv('bot:a').list()).toEqual([{ key: 'cursor', value: { since: '2026-01-01' } }]);
      expect(await ctx.store.kv('bot').list()).toEqual([]);
    });

    it('forgets a value after its TTL on the store clock', async () => {
      const kv = ctx.store.kv('cache');
      await kv.set('wall:3', { name: 'Engineering' }, { ttlMs: 5_000 });
      await kv.set('forever', true);
      ctx.clock.advance(4_999);
      expect(await kv.get('wall:3')).toEqual({ name: 'Engineering' });
      ctx.clock.advance(1);
      expect(await kv.get('wall:3')).toBeUndefined();
      expect(await kv.list()).toEqual([{ key: 'forever', value: true }]);
      expect(await kv.delete('wall:3')).toBe(false);
    });

    it('lists by prefix in key order, overwrites and deletes', async () => {
      const kv = ctx.store.kv('bot:sync');
      await kv.set('cursor:users', 'b');
      await kv.set('cursor:groups', 'a');
      await kv.set('cursorless', 'c');
      await kv.set('cursor:users', 'B');
      expect(await kv.list('cursor:')).toEqual([
        { key: 'cursor:groups', value: 'a' },
        { key: 'cursor:users', value: 'B' },
      ]);
      expect(await kv.delete('cursor:groups')).toBe(true);
      expect((await kv.list()).map((i) => i.key)).toEqual(['cursor:users', 'cursorless']);
    });
  });

  describe('secrets', () => {
    it('round-trips a secret and never stores it in plaintext', async () => {
      const plaintext = 'whsec_ThisIsTheSigningSecret_42';
      await ctx.store.secrets.put('webhook:t1:kudos', plaintext);
      expect(await ctx.store.secrets.get('webhook:t1:kudos')).toBe(plaintext);
      const raw = await ctx.harness.rawSecrets();
      expect(raw.length).toBeGreaterThan(0);
      expect(raw).not.toContain(plaintext);
      expect(raw).not.toContain(Buffer.from(plaintext).toString('base64'));
      expect(await ctx.store.secrets.names()).toEqual(['webhook:t1:kudos']);
    });

    it('keeps the first of two keys offered at once for the same name, on two connections, and tells both', async () => {
      const other = await ctx.open();
      const kept = await Promise.all([ctx.store.secrets.putIfAbsent('files-key', 'first'), other.secrets.putIfAbsent('files-key', 'second')]);
      expect(kept[0]).toBe(kept[1]);
      expect(['first', 'second']).toContain(kept[0]);
      expect(await other.secrets.putIfAbsent('files-key', 'third')).toBe(kept[0]);
      expect(await ctx.store.secrets.get('files-key')).toBe(kept[0]);
    });

    it('reads secrets with the same passphrase from a new connection', async () => {
      const first = await ctx.open('a long passphrase, not a key');
      await first.secrets.put('token:t1', 'svc_abc');
      const second = await ctx.open('a long passphrase, not a key');
      expect(await second.secrets.get('token:t1')).toBe('svc_abc');
    });

    it('fails with secret_undecryptable under a wrong key', async () => {
      await ctx.store.secrets.put('token:t1', 'svc_abc');
      const wrong = await ctx.open('0'.repeat(64));
      const error = await wrong.secrets.get('token:t1').catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'secret_undecryptable' });
      expect(String((error as Error).message)).not.toContain('svc_abc');
    });

    it('refuses to handle secrets without a key, naming INTRABOT_SECRET_KEY', async () => {
      const keyless = await ctx.open(null);
      await expect(keyless.secrets.put('x', 'y')).rejects.toMatchObject({ code: 'secret_key_missing', key: 'INTRABOT_SECRET_KEY' });
    });
  });

  describe('provisioning state', () => {
    it('keeps typed records per tenant', async () => {
      await ctx.store.provisioning.put('t1', { kind: 'bot_user', name: 'kudos', remoteId: 42 });
      await ctx.store.provisioning.put('t1', { kind: 'webhook_endpoint', name: 'kudos', remoteId: 'wh_9', fingerprint: 'abc' });
      await ctx.store.provisioning.put('t2', { kind: 'bot_user', name: 'kudos', remoteId: 7 });
      expect(await ctx.store.provisioning.get('t1', 'bot_user', 'kudos')).toMatchObject({ remoteId: 42, updatedAt: ctx.clock.now() });
      expect((await ctx.store.provisioning.list('t1')).map((r) => r.kind)).toEqual(['bot_user', 'webhook_endpoint']);
      expect(await ctx.store.provisioning.list('t2', 'webhook_endpoint')).toEqual([]);
      expect(await ctx.store.provisioning.delete('t1', 'bot_user', 'kudos')).toBe(true);
      expect(await ctx.store.provisioning.get('t1', 'bot_user', 'kudos')).toBeUndefined();
    });
  });

  describe('migrations', () => {
    it('runs at open and is idempotent when opened again', async () => {
      const version = await ctx.store.schemaVersion();
      expect(version).toBeGreaterThanOrEqual(1);
      await ctx.store.kv('bot:a').set('k', 1);
      const again = await ctx.open();
      expect(await again.schemaVersion()).toBe(version);
      expect(await again.kv('bot:a').get('k')).toBe(1);
    });

    it('refuses to open a store written by a newer version', async () => {
      await ctx.harness.forceSchemaVersion((await ctx.store.schemaVersion()) + 1);
      await expect(ctx.open()).rejects.toMatchObject({ code: 'store_unavailable' });
    });
  });
}
