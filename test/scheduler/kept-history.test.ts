import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRecords } from '../../src/scheduler/job-records';
import { startPair, type Pair } from '../../src/testing';

const CHORES = join(import.meta.dirname, '../cli/fixtures/bots/chores');

// issue #15, item 3: one start with a bot that failed to load wiped its job history (`LAST never`)
describe('the job history of a bot that fails to load', () => {
  let pair: Pair;
  let bots: string;

  beforeAll(async () => {
    bots = mkdtempSync(join(tmpdir(), 'intrabot-kept-history-'));
    cpSync(CHORES, join(bots, 'chores'), { recursive: true });
    // the fixture imports the framework by a relative path: from here, by an absolute one
    const module = join(bots, 'chores', 'index.ts');
    writeFileSync(module, readFileSync(module, 'utf8').replace("'../../../../../src'", `'${resolve('src/index.ts')}'`));
    pair = await startPair({ botsDir: bots });
  });
  afterAll(async () => {
    await pair?.close();
    rmSync(bots, { recursive: true, force: true });
  });

  it('survives a start at which the bot does not load', async () => {
    await pair.runJob('chores', 'remind');
    const identity = { tenant: 'sandbox', bot: 'chores', job: 'remind' };
    expect(await new JobRecords(pair.runtime.inspect().store).runs(identity)).toHaveLength(1);
    await pair.restartRuntime(async () => {
      writeFileSync(join(bots, 'chores', 'bot.yaml'), 'name: chores\ndisplay_name: Chores Bot\nreplly_to_bots: true\n');
    });
    expect(pair.runtime.inspect().failures).toHaveLength(1);
    const records = new JobRecords(pair.runtime.inspect().store);
    expect((await records.schedules()).map((s) => `${s.bot}/${s.job}`)).toEqual(['chores/remind']);
    expect((await records.runs(identity)).map((r) => [r.trigger, r.outcome])).toEqual([['manual', 'ok']]);
  });
});
