import { describe, expect, it } from 'vitest';
import type { ProvisionResult } from '../../src/bots/provision/provisioner';
import type { WallNames } from '../../src/bots/provision/wall-names';
import { InvalidInputError } from '../../src/errors';
import type { OutboxEntry } from '../../src/outbox/entry';
import { classifyFailure } from '../../src/outbox/retry-plan';
import { BotUserPendingError, resolveEntry, type EntryResolverSources } from '../../src/runtime/sending/resolve-entry';

/** The sender's resolve over a tenant's whole provisioning result, as the deployment table reads it. */
const entryResolver = (sources: { provisioned: () => ProvisionResult | undefined; walls: EntryResolverSources['walls'] }) => (entry: OutboxEntry) =>
  resolveEntry({ provisionedBot: (_tenant, bot) => sources.provisioned()?.bots[bot], walls: sources.walls }, entry);

const provisioned: ProvisionResult = {
  tenant: 'default',
  actions: [],
  allBotUserIds: [21],
  bots: {
    alerts: { name: 'alerts', enabled: true, botUserId: 21, incoming: {} },
    kudos: { name: 'kudos', enabled: false, reason: 'the token lacks read:achievements', incoming: {} },
  },
};
const walls = { resolve: async (name: string) => (name === 'Operations' ? 4 : Promise.reject(new Error(`no ${name}`))) } as unknown as WallNames;

describe('filling in an entry at send time', () => {
  it("sends a bot's post queued before provisioning as that bot's user, on the wall its name resolves to", async () => {
    const resolve = entryResolver({ provisioned: () => provisioned, walls: () => walls });
    const entry = await resolve({ kind: 'post', tenant: 'default', wallName: 'Operations', body: 'x', bot: 'alerts' });
    expect(entry).toMatchObject({ wallId: 4, botUserId: 21, bot: 'alerts' });
    expect(await resolve({ kind: 'dm', tenant: 'default', userId: 8, bot: 'alerts', text: 'hi' })).toMatchObject({ botUserId: 21 });
  });

  it('keeps an entry waiting (a retry, not a dead letter) while provisioning has not finished', async () => {
    const resolve = entryResolver({ provisioned: () => undefined, walls: () => walls });
    const waiting = resolve({ kind: 'post', tenant: 'default', wallId: 4, body: 'x', bot: 'alerts' });
    await expect(waiting).rejects.toThrow(BotUserPendingError);
    expect(classifyFailure(await waiting.catch((e: unknown) => e)).kind).toBe('transient');
  });

  it("dead-letters a message of a bot switched off on the tenant, with the reason, rather than posting it as the token's user", async () => {
    const resolve = entryResolver({ provisioned: () => provisioned, walls: () => walls });
    const refused = await resolve({ kind: 'post', tenant: 'default', wallId: 4, body: 'x', bot: 'kudos' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidInputError);
    expect(classifyFailure(refused)).toMatchObject({
      kind: 'dead',
      message: expect.stringMatching(/kudos is switched off on tenant default: the token lacks/),
    });
  });

  it('leaves an entry that needs nothing as it is', async () => {
    const resolve = entryResolver({ provisioned: () => undefined, walls: () => undefined });
    const entry = { kind: 'post' as const, tenant: 'default', wallId: 4, body: 'x', bot: 'alerts', botUserId: 21 };
    expect(await resolve(entry)).toEqual(entry);
  });
});
