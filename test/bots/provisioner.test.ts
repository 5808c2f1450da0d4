import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type IntrabotApi } from '../../src/api/create-api-client';
import { AdjustableClock } from '../../src/clock';
import { BotManifestSchema, type BotManifest } from '../../src/bots/manifest';
import { incomingSecretName, webhookSecretName } from '../../src/bots/provision/provision-bot';
import { formatPlan, provisionTenant, type ProvisionTenantInput } from '../../src/bots/provision/provisioner';
import { WALLS_KV, WallNames } from '../../src/bots/provision/wall-names';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import type { Store } from '../../src/store';
import { tempStore } from '../helpers/temp-store';

const manifest = (fields: Record<string, unknown>): BotManifest => BotManifestSchema.parse(fields);
const kudos = manifest({ name: 'kudos', display_name: 'Kudos Bot', events: ['post.created', { event: 'comment.created', walls: [2] }] });
const welcome = manifest({
  name: 'welcome',
  display_name: 'Welcome Bot',
  events: ['user.registered'],
  targets: { team: { incoming: { action: 'wall_post', wall_id: 1 } } },
});

const notice = manifest({ name: 'notice', display_name: 'Notice Bot', targets: { team: { incoming: { action: 'wall_post', wall_id: 1 } } } });
const awards = manifest({ name: 'awards', display_name: 'Awards Bot', events: ['achievement.awarded'] });

describe('provisionTenant against the sandbox', () => {
  let sandbox: Sandbox;
  let store: Store;
  let api: IntrabotApi;
  let clock: AdjustableClock;

  beforeEach(async () => {
    clock = new AdjustableClock();
    sandbox = await createSandbox({ port: 0, clock, seed: 'demo' });
    store = await tempStore(clock);
    api = createApiClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, clock });
  });
  afterEach(async () => {
    await api.close();
    await store.close();
    await sandbox.close();
  });

  const input = (manifests: BotManifest[], extra: Partial<ProvisionTenantInput> = {}): ProvisionTenantInput => ({
    tenant: 'sandbox',
    eventPrefix: 'service',
    api,
    store,
    publicUrl: 'http://127.0.0.1:3999',
    manifests,
    ...extra,
  });

  it('creates a bot user and a webhook endpoint with the bot events and filters, and keeps the secret', async () => {
    const result = await provisionTenant(input([kudos]));
    const bot = result.bots.kudos;
    expect(bot?.enabled).toBe(true);
    const hook = (await api.webhooks.get(bot!.webhookId!)) as Record<string, unknown>;
    expect(hook).toMatchObject({ name: 'intrabot:kudos', url: 'http://127.0.0.1:3999/hooks/sandbox/kudos', is_active: true });
    expect([...(hook.events as string[])].sort()).toEqual(['service.comment.created', 'service.post.created']);
    expect(hook.filters).toMatchObject({ 'service.comment.created': [2] });
    const { secret } = (await api.webhooks.secret(bot!.webhookId!)) as { secret: string };
    expect(await store.secrets.get(webhookSecretName('sandbox', 'kudos'))).toBe(secret);
    expect(((await api.bots.get(bot!.botUserId!)) as { name: string }).name).toBe('Kudos Bot');
  });

  it('changes nothing on a second run and says so', async () => {
    await provisionTenant(input([kudos, welcome]));
    const again = await provisionTenant(input([kudos, welcome]));
    expect(again.actions.filter((a) => a.action !== 'unchanged')).toEqual([]);
  });

  it('plans without touching anything in a dry run', async () => {
    const before = (await api.bots.list()) as { meta?: { total?: number } };
    const result = await provisionTenant(input([kudos], { dryRun: true }));
    expect(result.actions.map((a) => `${a.action} ${a.resource}`)).toEqual(['create bot_user', 'create webhook']);
    const after = (await api.bots.list()) as { meta?: { total?: number } };
    expect(after.meta?.total).toBe(before.meta?.total);
    expect(await store.provisioning.list('sandbox')).toEqual([]);
  });

  it('re-activates an endpoint switched off on the platform, reading its state before toggling', async () => {
    const first = await provisionTenant(input([kudos]));
    await api.webhooks.toggle(first.bots.kudos!.webhookId!);
    const second = await provisionTenant(input([kudos]));
    expect(second.actions).toContainEqual(expect.objectContaining({ resource: 'webhook', action: 'reactivate' }));
    expect(((await api.webhooks.get(first.bots.kudos!.webhookId!)) as { is_active: boolean }).is_active).toBe(true);
    const third = await provisionTenant(input([kudos]));
    expect(third.actions.every((a) => a.action === 'unchanged')).toBe(true);
  });

  it('finds its bot user and endpoint again by name when the store is lost', async () => {
    const first = await provisionTenant(input([kudos]));
    const fresh = await tempStore(clock);
    try {
      const again = await provisionTenant(input([kudos], { store: fresh }));
      expect(again.bots.kudos).toMatchObject({ botUserId: first.bots.kudos!.botUserId, webhookId: first.bots.kudos!.webhookId });
      expect(await fresh.secrets.get(webhookSecretName('sandbox', 'kudos'))).toBeDefined();
    } finally {
      await fresh.close();
    }
  });

  it('revokes the endpoint and retires the bot user of a bot that is gone', async () => {
    const first = await provisionTenant(input([kudos, welcome]));
    const after = await provisionTenant(input([welcome]));
    expect(after.actions).toContainEqual(expect.objectContaining({ resource: 'webhook', name: 'kudos', action: 'revoke' }));
    const hook = (await api.webhooks.get(first.bots.kudos!.webhookId!)) as { revoked_at: string | null };
    expect(hook.revoked_at).not.toBeNull();
    expect(((await api.bots.get(first.bots.kudos!.botUserId!)) as { name: string }).name).toBe('Kudos Bot (retired)');
  });

  it('keeps the endpoint and bot user of a bot that is present but failed to load', async () => {
    const first = await provisionTenant(input([kudos, welcome]));
    const after = await provisionTenant(input([welcome], { keep: ['kudos'] }));
    expect(after.actions.filter((a) => a.name === 'kudos')).toEqual([]);
    expect(((await api.webhooks.get(first.bots.kudos!.webhookId!)) as { revoked_at: string | null }).revoked_at).toBeNull();
  });

  it('creates the incoming webhooks targets ask for and keeps their URL encrypted', async () => {
    const result = await provisionTenant(input([welcome]));
    const id = result.bots.welcome!.incoming.team;
    expect(id).toBeTypeOf('number');
    const raw = (await store.kv('provisioning:sandbox').list()).map((i) => JSON.stringify(i.value)).join();
    expect(raw).not.toContain('/incoming/');
  });

  it('switches off a bot whose scopes the token lacks, naming them, while the others are provisioned', async () => {
    const res = await fetch(`${sandbox.baseUrl}/_sandbox/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'narrow', scopes: ['read:bots', 'write:bots', 'read:incoming_webhooks', 'write:incoming_webhooks'] }),
    });
    const { token } = (await res.json()) as { token: string };
    const narrow = createApiClient({ baseUrl: sandbox.baseUrl, token, clock });
    try {
      const result = await provisionTenant(input([kudos, welcome], { api: narrow }));
      const result2 = await provisionTenant(input([kudos, welcome, notice], { api: narrow }));
      expect(result.bots.kudos).toMatchObject({ enabled: false, reason: expect.stringContaining('read:webhooks') });
      expect(result.bots.welcome?.enabled).toBe(false);
      // a bot that needs only what the token has keeps running
      expect(result2.bots.notice).toMatchObject({ enabled: true });
      // scopes the manifest declares for its code count as much as the derived ones
      const reader = manifest({
        name: 'reader',
        display_name: 'Reader Bot',
        scopes: ['read:users'],
        targets: { team: { incoming: { action: 'wall_post', wall_id: 1 } } },
      });
      const result3 = await provisionTenant(input([reader], { api: narrow }));
      expect(result3.bots.reader).toMatchObject({ enabled: false, reason: expect.stringContaining('read:users') });
      expect(result2.bots.notice!.incoming.team).toBeTypeOf('number');
    } finally {
      await narrow.close();
    }
  });

  it("updates the bot user's name and avatar, and the endpoint's event rules, when the manifest changes", async () => {
    const first = await provisionTenant(input([kudos]));
    const renamed = manifest({ name: 'kudos', display_name: 'Kudos', avatar_url: 'https://example.com/kudos.png', events: ['post.created'] });
    const after = await provisionTenant(input([renamed]));
    expect(after.actions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ resource: 'bot_user', name: 'kudos', action: 'update' }),
        expect.objectContaining({ resource: 'webhook', name: 'kudos', action: 'update' }),
      ]),
    );
    const bot = (await api.bots.get(first.bots.kudos!.botUserId!)) as { name: string; avatar_url?: string | null };
    expect(bot.name).toBe('Kudos');
    expect(bot.avatar_url).toBe('https://example.com/kudos.png');
    const hook = (await api.webhooks.get(first.bots.kudos!.webhookId!)) as { events: unknown[] };
    expect(JSON.stringify(hook.events)).not.toContain('comment.created');
    expect((await provisionTenant(input([renamed]))).actions.every((a) => a.action === 'unchanged')).toBe(true);
  });

  it('revokes and recreates an incoming webhook whose URL the store lost (its token is shown only once)', async () => {
    const first = await provisionTenant(input([welcome]));
    await store.secrets.delete(incomingSecretName('sandbox', 'welcome', 'team'));
    const after = await provisionTenant(input([welcome]));
    expect(after.actions).toContainEqual(expect.objectContaining({ resource: 'incoming_webhook', name: 'welcome/team', action: 'recreate' }));
    expect(after.bots.welcome!.incoming.team).not.toBe(first.bots.welcome!.incoming.team);
    expect(((await api.incomingWebhooks.get(first.bots.welcome!.incoming.team!)) as { revoked_at: string | null }).revoked_at).not.toBeNull();
    expect(await store.secrets.get(incomingSecretName('sandbox', 'welcome', 'team'))).toContain('/incoming/');
  });

  it('finds its incoming webhook by name when the whole store is lost, revoking it and creating a new one', async () => {
    const first = await provisionTenant(input([welcome]));
    const fresh = await tempStore(clock);
    try {
      const again = await provisionTenant(input([welcome], { store: fresh }));
      expect(again.actions).toContainEqual(expect.objectContaining({ resource: 'incoming_webhook', name: 'welcome/team', action: 'recreate' }));
      expect(((await api.incomingWebhooks.get(first.bots.welcome!.incoming.team!)) as { revoked_at: string | null }).revoked_at).not.toBeNull();
      const live = [];
      for await (const hook of api.incomingWebhooks.all()) if (!(hook as { revoked_at: string | null }).revoked_at) live.push(hook);
      expect(live).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('switches off a bot subscribed to achievement.awarded when the feature is disabled (403), provisioning the others', async () => {
    await fetch(`${sandbox.baseUrl}/_sandbox/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ achievements_enabled: false }),
    });
    const giver = manifest({ name: 'giver', display_name: 'Giver Bot', scopes: ['write:achievements'] });
    const result = await provisionTenant(input([awards, giver, kudos]));
    expect(result.bots.awards).toMatchObject({ enabled: false, reason: 'the achievements feature is disabled on this platform' });
    // a bot that awards (it declares an achievements scope) needs the feature as much
    expect(result.bots.giver).toMatchObject({ enabled: false, reason: 'the achievements feature is disabled on this platform' });
    expect(result.bots.kudos).toMatchObject({ enabled: true });
  });

  it("stores a recreated endpoint's new secret even when it got its predecessor's id (a sandbox reset numbers from 1 again)", async () => {
    const first = await provisionTenant(input([kudos]));
    const before = await store.secrets.get(webhookSecretName('sandbox', 'kudos'));
    await fetch(`${sandbox.baseUrl}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 'demo' }),
    });
    const again = await provisionTenant(input([kudos]));
    expect(again.bots.kudos!.webhookId).toBe(first.bots.kudos!.webhookId);
    const { secret } = (await api.webhooks.secret(again.bots.kudos!.webhookId!)) as { secret: string };
    expect(secret).not.toBe(before);
    expect(await store.secrets.get(webhookSecretName('sandbox', 'kudos'))).toBe(secret);
  });

  it("never takes over another bot's user or endpoint that got a remembered id after a platform reset", async () => {
    await provisionTenant(input([kudos, welcome]));
    await fetch(`${sandbox.baseUrl}/_sandbox/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seed: 'demo' }),
    });
    // welcome is provisioned first on the fresh platform (kudos failed to load, say): it gets kudos's old ids
    const first = await provisionTenant(input([welcome], { keep: ['kudos'] }));
    const again = await provisionTenant(input([kudos, welcome]));
    expect(again.bots.kudos!.botUserId).not.toBe(first.bots.welcome!.botUserId);
    expect(((await api.bots.get(first.bots.welcome!.botUserId!)) as { name: string }).name).toBe('Welcome Bot');
    expect(((await api.bots.get(again.bots.kudos!.botUserId!)) as { name: string }).name).toBe('Kudos Bot');
    const welcomeHook = (await api.webhooks.get(first.bots.welcome!.webhookId!)) as { url: string; revoked_at: string | null };
    expect(welcomeHook.url).toContain('/hooks/sandbox/welcome');
    expect(welcomeHook.revoked_at).toBeNull();
    // and a later run without kudos retires kudos's own bot user, not welcome's
    await provisionTenant(input([welcome]));
    expect(((await api.bots.get(first.bots.welcome!.botUserId!)) as { name: string }).name).toBe('Welcome Bot');
    expect(((await api.bots.get(again.bots.kudos!.botUserId!)) as { name: string }).name).toBe('Kudos Bot (retired)');
  });

  it('lists the walls once for targets that name them, stores the listing, and reports a name the tenant lacks', async () => {
    const notices = manifest({
      name: 'notices',
      display_name: 'Notices',
      targets: { ops: { wall: 'Operations' }, typo: { wall: 'Operatons' }, 'by-id': { wall: 3 } },
    });
    const walls = new WallNames({ tenant: 'sandbox', api, clock, kv: store.kv(WALLS_KV) });
    const result = await provisionTenant(input([notices], { walls }));
    expect(result.actions.filter((a) => a.resource === 'wall')).toEqual([
      { tenant: 'sandbox', resource: 'wall', name: 'notices/typo', action: 'missing', detail: 'no wall named "Operatons"' },
    ]);
    expect(formatPlan([result])).toMatch(/1 change\(s\), 1 problem\(s\)\n(.*\n)*  missing +wall +notices\/typo  \(no wall named "Operatons"\)/);
    // every later lookup, in this process or another, reads the stored listing
    const elsewhere = new WallNames({ tenant: 'sandbox', api: {} as never, clock, kv: store.kv(WALLS_KV) });
    expect(await elsewhere.lookup('operations')).toMatchObject({ kind: 'found' });
    expect(await elsewhere.lookup('Operatons')).toMatchObject({ kind: 'missing' });
  });

  // issue #15, item 3: `{ wall: Compnay }` in a bot's config passed provisioning and failed when the job ran
  it("reports a wall a bot's config names ({ wall: Name }) that the tenant lacks, naming the field", async () => {
    const birthday = manifest({
      name: 'birthday',
      display_name: 'Birthday',
      scopes: ['read:walls'],
      config: { target: { wall: 'Compnay' }, extra: [{ wall: 'Company' }], fallback: { wall: 4 } },
    });
    const walls = new WallNames({ tenant: 'sandbox', api, clock, kv: store.kv(WALLS_KV) });
    const result = await provisionTenant(input([birthday], { walls }));
    expect(result.actions.filter((a) => a.resource === 'wall')).toEqual([
      { tenant: 'sandbox', resource: 'wall', name: 'birthday/config.target', action: 'missing', detail: 'no wall named "Compnay"' },
    ]);
  });

  it('reports a missing wall in a dry run without storing a listing', async () => {
    const notices = manifest({ name: 'notices', display_name: 'Notices', targets: { typo: { wall: 'Operatons' } } });
    const walls = new WallNames({ tenant: 'sandbox', api, clock, kv: store.kv(WALLS_KV) });
    const plan = await provisionTenant(input([notices], { walls, dryRun: true }));
    expect(plan.actions).toContainEqual(expect.objectContaining({ resource: 'wall', action: 'missing', name: 'notices/typo' }));
    expect(await walls.lookup('Operatons')).toEqual({ kind: 'unlisted' });
  });
});
