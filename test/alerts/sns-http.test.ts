import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing';
import { signSns, TEST_SNS_CERT_URL, testSnsFetch } from '../helpers/sns-signing';
import { ownFixture } from './load-fixture';

// after the fixtures' times, within the hour SNS keeps a message (and the test certificate is valid then)
const START = Date.parse('2027-01-14T09:45:00Z');
const BASIC = { authorization: `Basic ${Buffer.from('sns:sns-pass').toString('base64')}` };

describe('sns alert source over real HTTP (issue #27), the runtime given a test certificate fetcher', () => {
  let pair: Pair;
  let wall: number;
  const recorder = testSnsFetch();
  // as SNS posts: JSON as text/plain, the credential of the subscription URL (user:pass@) as Basic
  const send = (
    file: string,
    headers: Record<string, string> = BASIC,
    version: '1' | '2' = '2',
    afterSigning: Record<string, unknown> = {},
    beforeSigning: Record<string, unknown> = {},
  ) =>
    fetch(`${pair.runtime.inspect().url}/alerts/sources/sns`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': String(ownFixture(file).Type), ...headers },
      body: JSON.stringify({ ...signSns({ ...ownFixture(file), ...beforeSigning }, version), ...afterSigning }),
    });
  const postsShowing = async (text: string) => (await pair.platform.wallPosts(wall)).filter((p) => p.body?.includes(text));

  beforeAll(async () => {
    pair = await startPair({ botsDir: 'test/fixtures/bots-alert-sources', start: START, snsFetch: recorder.fetch });
    wall = (await pair.refs()).department_walls.Operations!;
    await pair.platform.settings({ rate_limit_per_minute: 600 });
  }, 60_000);
  afterAll(async () => pair?.close());

  it('challenges a request without the credential (SNS then resends with it), and confirms the subscription with it', async () => {
    const challenged = await send('sns-subscription-confirmation.json', {});
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get('www-authenticate')).toMatch(/^Basic /);
    const confirmed = await send('sns-subscription-confirmation.json');
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ confirmed: true });
    expect(recorder.gets).toContain(String(ownFixture('sns-subscription-confirmation.json').SubscribeURL));
  });

  it('refuses a tampered alarm with 401 and posts nothing', async () => {
    const res = await send('sns-cloudwatch-alarm.json', BASIC, '1', { Subject: 'ALARM: "intranet-api tampered" in EU (Ireland)' });
    expect(res.status).toBe(401);
    await pair.settle();
    expect(await postsShowing('intranet-api')).toEqual([]);
  });

  it('refuses a correctly signed alarm older than the hour SNS keeps a message (a replay) with 401', async () => {
    const replayed = await send('sns-cloudwatch-alarm.json', BASIC, '2', {}, { Timestamp: '2027-01-14T08:30:00.000Z' });
    expect(replayed.status).toBe(401);
    await pair.settle();
    expect(await postsShowing('intranet-api')).toEqual([]);
  });

  it('posts the CloudWatch ALARM on the wall, then answers that post with a comment when the alarm is OK', async () => {
    expect((await send('sns-cloudwatch-alarm.json')).status).toBe(202);
    const posts = await pair.platform.waitFor(
      () => postsShowing('intranet-api 5xx rate'),
      (p) => p.length > 0,
    );
    expect(posts).toHaveLength(1);
    expect((await send('sns-cloudwatch-ok.json', BASIC, '1')).status).toBe(202);
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(posts[0]!.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toMatch(/resolved/i);
    expect(recorder.gets.filter((url) => url === TEST_SNS_CERT_URL)).toHaveLength(1);
  });

  it('posts a plain-text notification as its text, titled by its Subject', async () => {
    expect((await send('sns-plain-text.json')).status).toBe(202);
    const posts = await pair.platform.waitFor(
      () => postsShowing('Hourly backup of intranet-db failed'),
      (p) => p.length > 0,
    );
    expect(posts[0]?.body).toContain('snapshot quota exceeded');
  });
});
