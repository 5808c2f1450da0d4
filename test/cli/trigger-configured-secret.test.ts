import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSecretName } from '../../src/bots/provision/provision-bot';
import { runTrigger } from '../../src/cli/commands/trigger';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { startPair, type Pair } from '../../src/testing';
import { captureIo, pairEnv } from './cli-io';

const BOTS_DIR = resolve('test/fixtures/bots-rotation');
const CONFIGURED = 'a-secret-managed-elsewhere-0123456789';

describe('intrabot trigger for a bot whose endpoint is managed outside intrabot', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ botsDir: BOTS_DIR, bots: ['tally'], env: { INTRABOT_WEBHOOK_SECRETS: `tally:${CONFIGURED}` } });
    // no secret of its own in the store: only the configured one signs its deliveries
    await pair.runtime.inspect().store.secrets.delete(webhookSecretName('sandbox', 'tally'));
    runtimePartsOf(pair.runtime).table.forgetSecrets();
  });
  afterAll(async () => pair?.close());

  it('signs with the first configured secret, which the runtime accepts', async () => {
    const io = captureIo(pairEnv(pair, BOTS_DIR, { INTRABOT_WEBHOOK_SECRETS: `tally:${CONFIGURED}` }));
    expect(await runTrigger(['tally', 'user.registered'], io)).toBe(0);
    expect(io.out).toMatch(/\n200 \{"ok":true/);
    expect(io.out + io.err).not.toContain(CONFIGURED);
  });
});
