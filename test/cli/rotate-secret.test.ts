import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRotateSecret } from '../../src/cli/commands/rotate-secret';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { startPair, type Pair } from '../../src/testing';
import { captureIo, freePort, pairEnv } from './cli-io';

const BOTS_DIR = resolve('test/fixtures/bots-rotation');

describe('intrabot rotate-secret', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ botsDir: BOTS_DIR, bots: ['tally'] });
  });
  afterAll(async () => pair?.close());

  it('rotates through the running runtime and says when the old endpoint goes, without printing a secret', async () => {
    const io = captureIo(pairEnv(pair, BOTS_DIR));
    expect(await runRotateSecret(['tally'], io)).toBe(0);
    expect(io.out).toMatch(/rotating tally on sandbox: endpoint \d+ receives every event now, both secrets are accepted; endpoint \d+ is revoked at \S+Z/);
    const secret = (await pair.runtime.inspect().store.secrets.get(webhookSecretName('sandbox', 'tally')))!;
    expect(io.out + io.err).not.toContain(secret);

    const status = captureIo(pairEnv(pair, BOTS_DIR));
    expect(await runRotateSecret(['--status'], status)).toBe(0);
    expect(status.out).toMatch(/sandbox\s+tally\s+overlap/);
  });

  it('refuses a second rotation while the first overlaps, naming when it ends', async () => {
    const io = captureIo(pairEnv(pair, BOTS_DIR));
    expect(await runRotateSecret(['tally'], io)).toBe(1);
    expect(io.err).toMatch(/\(409\): a rotation of bot "tally" on tenant "sandbox" is in progress \(overlap\): the old endpoint is revoked at/);
  });

  it('names an unknown bot, and asks for a bot when none is given', async () => {
    const unknown = captureIo(pairEnv(pair, BOTS_DIR));
    expect(await runRotateSecret(['nobody'], unknown)).toBe(1);
    expect(unknown.err).toContain('no bot "nobody" is deployed to tenant "sandbox"');
    const none = captureIo(pairEnv(pair, BOTS_DIR));
    expect(await runRotateSecret([], none)).toBe(2);
    expect(none.err).toContain('give the bot whose signing secret to rotate');
  });

  it('says the runtime must be running when none listens', async () => {
    const io = captureIo({ ...pairEnv(pair, BOTS_DIR), INTRABOT_PORT: String(await freePort()) });
    expect(await runRotateSecret(['tally'], io)).toBe(1);
    expect(io.err).toContain('the running runtime rotates secrets: start it first');
  });
});
