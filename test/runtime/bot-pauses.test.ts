import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { SILENT_LOGGER } from '../../src/log';
import { BotPauses } from '../../src/runtime/pause/bot-pauses';
import type { DeploymentTable } from '../../src/runtime/deployments';
import { openStore, type Store } from '../../src/store';
import { HELD_NOTE, holdIfPaused, PAUSED_BOTS_SPACE, PausedBots } from '../../src/store/paused-bots';

/** The deployments a table lists: only the names `BotPauses` reads. */
function tableOf(deployments: [tenant: string, bot: string][]): DeploymentTable {
  return { all: () => deployments.map(([tenant, bot]) => ({ tenant: { config: { id: tenant } }, bot: { name: bot } })) } as unknown as DeploymentTable;
}

describe('BotPauses', () => {
  let dir: string;
  let clock: AdjustableClock;
  let store: Store;
  let paused: PausedBots;
  let pauses: BotPauses;
  const resumedSchedules: string[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'intrabot-bot-pauses-'));
    clock = new AdjustableClock({ frozen: true, start: Date.parse('2026-03-02T10:00:00Z') });
    store = await openStore({ kind: 'sqlite', path: join(dir, 'intrabot.db') }, { clock, secretKey: 'bot-pauses-test-key' });
    paused = new PausedBots(store.kv(PAUSED_BOTS_SPACE), clock);
    resumedSchedules.length = 0;
    pauses = new BotPauses({
      table: tableOf([
        ['acme', 'kudos'],
        ['globex', 'kudos'],
        ['acme', 'birthday'],
      ]),
      store,
      paused,
      scheduler: { resumed: async (tenant, bot) => void resumedSchedules.push(`${tenant}/${bot}`) },
      wake: () => undefined,
      logger: SILENT_LOGGER,
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the tenant when the bot runs on one, and asks for it when it runs on several', () => {
    expect(pauses.locate('birthday', undefined)).toEqual({ tenant: 'acme', bot: 'birthday' });
    expect(() => pauses.locate('kudos', undefined)).toThrow(/tenant: bot kudos runs on tenants acme, globex; name one/);
    expect(pauses.locate('kudos', 'globex')).toEqual({ tenant: 'globex', bot: 'kudos' });
    expect(() => pauses.locate('birthday', 'globex')).toThrow(/not deployed to tenant "globex"/);
    expect(() => pauses.locate('kudoz', 'acme')).toThrow(/no bot "kudoz" is deployed here \(did you mean "kudos"\?\)/);
  });

  it("releases only the resumed tenant's held deliveries, and catches up only its schedules", async () => {
    await pauses.pause({ tenant: 'acme', bot: 'kudos' }, { reason: 'loop' }, 'admin');
    await pauses.pause({ tenant: 'globex', bot: 'kudos' }, {}, 'admin');
    for (const tenant of ['acme', 'globex']) {
      await store.inbox.accept({ tenant, bot: 'kudos', deliveryId: `d-${tenant}`, envelope: { id: `d-${tenant}` } });
      const lease = await store.inbox.reserve(10_000);
      expect(await holdIfPaused(paused, store.inbox, lease!, lease!.payload, clock.now())).toBe(true);
    }
    const result = await pauses.resume({ tenant: 'acme', bot: 'kudos' }, {}, 'admin');
    expect(result).toMatchObject({ resumed: true, released: 1, discarded: 0, messages: 0, pause: { reason: 'loop' } });
    expect(resumedSchedules).toEqual(['acme/kudos']);
    expect((await store.inbox.reserve(10_000))?.payload.tenant).toBe('acme');
    expect((await store.inbox.list()).filter((e) => e.state === 'pending' && e.lastError === HELD_NOTE).map((e) => e.payload.tenant)).toEqual(['globex']);
    expect((await pauses.list()).map((p) => p.tenant)).toEqual(['globex']);
  });

  it('refuses a bad reason naming the field, and pauses nothing', async () => {
    await expect(pauses.pause({ tenant: 'acme', bot: 'kudos' }, { reason: 'x'.repeat(501) }, 'admin')).rejects.toThrow(/pause\.reason: at most 500 characters/);
    expect(await pauses.list()).toEqual([]);
  });
});
