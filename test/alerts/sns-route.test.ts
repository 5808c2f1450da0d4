import { describe, expect, it } from 'vitest';
import { validateAlertInputs } from '../../src/alerts/alert-input';
import { BotManifestSchema } from '../../src/bots/manifest';
import { configErrorOf } from '../helpers/config-error';
import { signSns, TEST_SNS_CERT_URL, testSnsFetch } from '../helpers/sns-signing';
import { harness, post } from './input-route-harness';
import { ownFixture } from './load-fixture';

// after the fixtures' times, within the hour SNS keeps a message (and the test certificate is valid then)
const START = Date.parse('2027-01-14T09:45:00Z');
// SNS posts its JSON as text/plain, with no credential but the signature inside it
const SNS_HEADERS = { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' };
const signed = (file: string, version: '1' | '2' = '1', change: Record<string, unknown> = {}) =>
  JSON.stringify(signSns({ ...ownFixture(file), ...change }, version));

async function snsHarness() {
  const recorder = testSnsFetch();
  const h = await harness({ snsFetch: recorder.fetch, start: START });
  return { h, gets: recorder.gets, send: (body: string) => post(h, '/alerts/alerts/sns', body, SNS_HEADERS) };
}

describe('sns alert input (issue #27): the AWS signature is the sender check', () => {
  it('accepts a CloudWatch alarm signed with SignatureVersion 1 and one signed with SignatureVersion 2, sent as text/plain', async () => {
    const { h, send } = await snsHarness();
    const v1 = await send(signed('sns-cloudwatch-alarm.json', '1'));
    expect(v1.statusCode).toBe(202);
    expect(v1.json()).toEqual({ accepted: 1, queued: 1 });
    expect(h.sent[0]?.text).toContain('intranet-api 5xx rate');
    const v2 = await send(signed('sns-plain-text.json', '2'));
    expect(v2.statusCode).toBe(202);
    expect(h.sent).toHaveLength(2);
  });

  it('refuses a message changed after it was signed with 401 and queues nothing', async () => {
    const { h, send } = await snsHarness();
    const body = signed('sns-cloudwatch-alarm.json', '2').replaceAll('intranet-api 5xx rate', 'intranet-api 4xx rate');
    expect(body).toContain('4xx');
    const res = await send(body);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'unauthorized' });
    expect(h.sent).toEqual([]);
  });

  it('refuses a certificate URL off the SNS hosts with 401 without fetching it', async () => {
    const { h, gets, send } = await snsHarness();
    for (const url of [
      'https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem',
      'http://sns.eu-west-1.amazonaws.com/cert.pem',
      'https://127.0.0.1/cert.pem',
    ]) {
      const res = await send(signed('sns-cloudwatch-alarm.json', '1', { SigningCertURL: url }));
      expect(res.statusCode, url).toBe(401);
    }
    expect(gets).toEqual([]);
    expect(h.sent).toEqual([]);
  });

  it('refuses a correctly signed message older than the hour SNS keeps one (a replay), or from the future, with 401 before fetching its certificate', async () => {
    const { h, gets, send } = await snsHarness();
    const stale = await send(signed('sns-cloudwatch-alarm.json', '2', { Timestamp: new Date(START - 66 * 60_000).toISOString() }));
    expect(stale.statusCode).toBe(401);
    const ahead = await send(signed('sns-cloudwatch-alarm.json', '2', { Timestamp: new Date(START + 6 * 60_000).toISOString() }));
    expect(ahead.statusCode).toBe(401);
    expect(gets).toEqual([]);
    expect(h.sent).toEqual([]);
    // within SNS's hour (and five minutes of clock difference) the same message is accepted
    expect((await send(signed('sns-cloudwatch-alarm.json', '2', { Timestamp: new Date(START - 64 * 60_000).toISOString() }))).statusCode).toBe(202);
  });

  it('fetches the signing certificate once for many messages', async () => {
    const { gets, send } = await snsHarness();
    expect((await send(signed('sns-cloudwatch-alarm.json'))).statusCode).toBe(202);
    expect((await send(signed('sns-plain-text.json'))).statusCode).toBe(202);
    expect((await send(signed('sns-cloudwatch-ok.json', '2'))).statusCode).toBe(202);
    expect(gets).toEqual([TEST_SNS_CERT_URL]);
  });

  it('answers 503 when the certificate cannot be fetched, so SNS retries, and queues nothing', async () => {
    const { h, gets, send } = await snsHarness();
    const elsewhere = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-unknown.pem';
    const res = await send(signed('sns-cloudwatch-alarm.json', '1', { SigningCertURL: elsewhere }));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: 'alert_source_unreachable' });
    expect(gets).toEqual([elsewhere]);
    expect(h.sent).toEqual([]);
  });

  it('refuses a verified message from a topic not in options.topics with 403 naming TopicArn, and posts nothing', async () => {
    const { h, send } = await snsHarness();
    const other = 'arn:aws:sns:eu-west-1:123456789012:someone-elses-topic';
    const res = await send(signed('sns-cloudwatch-alarm.json', '1', { TopicArn: other }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden', details: { field: 'TopicArn', topic: other } });
    expect(res.json().message).toContain('alerts.8.options.topics');
    expect(h.sent).toEqual([]);
  });
});

describe('sns alert input: subscriptions', () => {
  it('confirms a verified subscription of an allowed topic by a GET of its SubscribeURL, answering 200 and posting nothing', async () => {
    const { h, gets, send } = await snsHarness();
    const confirmation = ownFixture('sns-subscription-confirmation.json');
    const res = await send(signed('sns-subscription-confirmation.json', '2'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ confirmed: true });
    expect(gets).toEqual([TEST_SNS_CERT_URL, confirmation.SubscribeURL]);
    expect(h.sent).toEqual([]);
  });

  it('confirms nothing when the signature does not verify, the topic is not allowed, or the SubscribeURL is not on an SNS host', async () => {
    const { gets, send } = await snsHarness();
    const forged = JSON.stringify({ ...(JSON.parse(signed('sns-subscription-confirmation.json')) as object), Token: 'a-token-of-my-own' });
    expect((await send(forged)).statusCode).toBe(401);
    const other = 'arn:aws:sns:eu-west-1:123456789012:someone-elses-topic';
    expect((await send(signed('sns-subscription-confirmation.json', '1', { TopicArn: other }))).statusCode).toBe(403);
    const offHost = await send(signed('sns-subscription-confirmation.json', '1', { SubscribeURL: 'https://attacker.example/?Action=ConfirmSubscription' }));
    expect(offHost.statusCode).toBe(400);
    expect(offHost.json()).toMatchObject({ error: 'invalid_input', details: { field: 'body.SubscribeURL' } });
    expect(gets.filter((url) => url !== TEST_SNS_CERT_URL)).toEqual([]);
  });

  it('acknowledges an unsubscribe confirmation with 200, visiting nothing and posting nothing', async () => {
    const { h, gets, send } = await snsHarness();
    const res = await send(signed('sns-subscription-confirmation.json', '1', { Type: 'UnsubscribeConfirmation' }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ unsubscribed: true });
    expect(gets).toEqual([TEST_SNS_CERT_URL]);
    expect(h.sent).toEqual([]);
  });
});

describe('sns alert input: CloudWatch alarms', () => {
  it('posts an ALARM once, and answers it with the resolution when the alarm returns to OK', async () => {
    const { h, send } = await snsHarness();
    expect((await send(signed('sns-cloudwatch-alarm.json'))).json()).toEqual({ accepted: 1, queued: 1 });
    // SNS's retry of the same message changes nothing
    expect((await send(signed('sns-cloudwatch-alarm.json'))).json()).toEqual({ accepted: 1, queued: 0 });
    await h.state.recordPost('sandbox', 'alerts', h.sent[0]!.refs!, 41);
    expect((await send(signed('sns-cloudwatch-ok.json'))).json()).toEqual({ accepted: 1, queued: 1 });
    expect(h.sent).toHaveLength(2);
    expect(h.sent[1]?.text).toMatch(/resolved/i);
    expect(h.sent[1]?.replyTo).toEqual({ postId: 41 });
  });
});

describe('sns alert input: configuration', () => {
  const manifestWith = (input: Record<string, unknown>) =>
    BotManifestSchema.parse({ name: 'aws', display_name: 'AWS', targets: { ops: { wall: 1 } }, alerts: [{ input: 'sns', format: 'sns', ...input }] });

  it('needs no credential (the signature checks the sender) but needs options.topics', () => {
    expect(() => validateAlertInputs(manifestWith({ options: { topics: ['arn:aws:sns:eu-west-1:123456789012:alerts'] } }), 'connected')).not.toThrow();
    const missing = configErrorOf(() => validateAlertInputs(manifestWith({}), 'connected'));
    expect(missing).toMatchObject({ key: 'alerts.0.options.topics' });
  });

  it('refuses a signing secret, which SNS has none of', () => {
    const topics = ['arn:aws:sns:eu-west-1:123456789012:alerts'];
    expect(configErrorOf(() => validateAlertInputs(manifestWith({ signing: { secret: 's' }, options: { topics } }), 'connected'))).toMatchObject({
      key: 'alerts.0.signing',
    });
  });

  it('refuses a topic that is not an SNS topic ARN, naming the option', () => {
    expect(() => validateAlertInputs(manifestWith({ options: { topics: ['intranet-alarms'] } }), 'connected')).toThrow(/alerts\.0\.options\.topics/);
  });
});
