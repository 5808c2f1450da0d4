// testBot's alert door takes the query a tool puts its credential in (auth: { query_token }), and checks it as
// POST /alerts/:bot/:input?token=... is checked (issue #27: the door could not be given one before).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { alertSample, testBot } from '../../src/testing';

const SOURCES = fileURLToPath(new URL('../fixtures/bots-alert-sources/sources', import.meta.url));
const azure = (): unknown => JSON.parse(alertSample('azure-monitor-fired.json'));

describe("testBot's alert door and a query token", () => {
  it('takes an alert whose query carries the right token, and refuses a wrong one naming query.token', async () => {
    const bot = await testBot(SOURCES);
    await expect(bot.alert('azure', azure(), { query: { token: 'wrong' } })).rejects.toMatchObject({
      code: 'unauthorized',
      message: expect.stringContaining('query.token'),
    });
    expect(bot.sent).toEqual([]);
    const run = await bot.alert('azure', azure(), { query: { token: 'azure-token' } });
    expect(run.accepted).toBeGreaterThan(0);
    expect(bot.sent.length).toBeGreaterThan(0);
  });

  it('does not check credentials the test leaves out, as before: the test is about what is posted', async () => {
    const bot = await testBot(SOURCES);
    expect((await bot.alert('azure', azure())).accepted).toBeGreaterThan(0);
  });
});
