import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseAlerts } from '../../src/alerts/adapters';
import { SnsCertificates } from '../../src/alerts/sns/sns-certificates';
import { snsCertificateUrl, snsUrl } from '../../src/alerts/sns/sns-hosts';
import { SnsMessageSchema, snsStringToSign } from '../../src/alerts/sns/sns-message';
import { verifySnsSignature } from '../../src/alerts/sns/sns-signature';
import { signSns, TEST_SNS_CERT, TEST_SNS_CERT_URL, testSnsFetch } from '../helpers/sns-signing';
import { ownFixture } from './load-fixture';

const NOW = Date.parse('2027-01-14T09:45:00Z');
const certificate = new X509Certificate(TEST_SNS_CERT);
const message = (file: string, version: '1' | '2' = '1') => SnsMessageSchema.parse(signSns(ownFixture(file), version));
const alertOf = (file: string) => {
  const alerts = parseAlerts('sns', ownFixture(file)).flatMap((g) => g.alerts);
  expect(alerts).toHaveLength(1);
  return alerts[0]!;
};

describe('sns: the string AWS signs', () => {
  it('is name, newline, value, newline for Message, MessageId, Subject, Timestamp, TopicArn, Type of a notification, in that order', () => {
    const text = snsStringToSign(SnsMessageSchema.parse(ownFixture('sns-plain-text.json')));
    expect(text).toBe(
      [
        'Message',
        'The hourly snapshot job for intranet-db stopped at 09:29 UTC.\nError: snapshot quota exceeded in eu-west-1.',
        'MessageId',
        '0f8e7d6c-1a2b-4c3d-9e8f-0a1b2c3d4e04',
        'Subject',
        'Hourly backup of intranet-db failed',
        'Timestamp',
        '2027-01-14T09:30:09.530Z',
        'TopicArn',
        'arn:aws:sns:eu-west-1:123456789012:intranet-alarms',
        'Type',
        'Notification',
        '',
      ].join('\n'),
    );
  });

  it('leaves Subject out of a notification that has none', () => {
    const { Subject: _subject, ...body } = ownFixture('sns-plain-text.json');
    expect(snsStringToSign(SnsMessageSchema.parse(body))).toMatch(/^Message\n[\s\S]*\nMessageId\n[^\n]+\nTimestamp\n/);
  });

  it('signs Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type of a subscription confirmation', () => {
    const confirmation = SnsMessageSchema.parse(ownFixture('sns-subscription-confirmation.json'));
    const { Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type } = confirmation;
    const pairs = { Message, MessageId, SubscribeURL, Timestamp, Token, TopicArn, Type };
    expect(snsStringToSign(confirmation)).toBe(
      Object.entries(pairs)
        .map(([name, value]) => `${name}\n${value}\n`)
        .join(''),
    );
  });
});

describe('sns: signature verification', () => {
  it('verifies SignatureVersion 1 (SHA1withRSA) and SignatureVersion 2 (SHA256withRSA)', () => {
    expect(verifySnsSignature(message('sns-cloudwatch-alarm.json', '1'), certificate, NOW)).toBe(true);
    expect(verifySnsSignature(message('sns-cloudwatch-alarm.json', '2'), certificate, NOW)).toBe(true);
    expect(verifySnsSignature(message('sns-subscription-confirmation.json', '2'), certificate, NOW)).toBe(true);
  });

  it('refuses a message changed after it was signed, and a signature claiming the other version', () => {
    const signed = message('sns-cloudwatch-alarm.json', '2');
    expect(verifySnsSignature({ ...signed, Message: signed.Message.replace('"ALARM"', '"OK"') }, certificate, NOW)).toBe(false);
    expect(verifySnsSignature({ ...signed, Subject: 'OK' }, certificate, NOW)).toBe(false);
    expect(verifySnsSignature({ ...signed, SignatureVersion: '1' }, certificate, NOW)).toBe(false);
    const confirmation = message('sns-subscription-confirmation.json');
    expect(
      verifySnsSignature({ ...confirmation, SubscribeURL: 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x' }, certificate, NOW),
    ).toBe(false);
  });

  it('refuses a signature by another key, and a certificate used outside its validity', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(verifySnsSignature(SnsMessageSchema.parse(signSns(ownFixture('sns-plain-text.json'), '1', other)), certificate, NOW)).toBe(false);
    expect(verifySnsSignature(message('sns-plain-text.json'), certificate, Date.parse(certificate.validTo) + 1000)).toBe(false);
  });
});

describe('sns: the hosts a message may make the runtime call', () => {
  it('accepts https on sns.<region>.amazonaws.com and .amazonaws.com.cn only, on the default port, without credentials', () => {
    expect(snsCertificateUrl(TEST_SNS_CERT_URL)?.host).toBe('sns.eu-west-1.amazonaws.com');
    expect(snsCertificateUrl('https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-x.pem')).toBeDefined();
    expect(snsCertificateUrl('https://sns.us-gov-west-1.amazonaws.com/SimpleNotificationService-x.pem')).toBeDefined();
    for (const url of [
      'http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-x.pem',
      'https://sns.eu-west-1.amazonaws.com.evil.example/SimpleNotificationService-x.pem',
      'https://evil.example/sns.eu-west-1.amazonaws.com/x.pem',
      'https://sns.eu-west-1.amazonaws.com:8443/SimpleNotificationService-x.pem',
      'https://user:pw@sns.eu-west-1.amazonaws.com/SimpleNotificationService-x.pem',
      'https://s3.eu-west-1.amazonaws.com/SimpleNotificationService-x.pem',
      'https://sns.eu-west-1.amazonaws.com/not-a-certificate',
      'not a url',
    ]) {
      expect(snsCertificateUrl(url), url).toBeUndefined();
    }
    expect(snsUrl('https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&Token=t')).toBeDefined();
    expect(snsUrl('https://169.254.169.254/latest/meta-data/')).toBeUndefined();
  });
});

describe('sns: signing certificates', () => {
  it('fetches a certificate once and serves it from the cache after', async () => {
    const { fetch, gets } = testSnsFetch();
    const certificates = new SnsCertificates(fetch);
    const url = new URL(TEST_SNS_CERT_URL);
    const [a, b] = await Promise.all([certificates.get(url), certificates.get(url)]);
    await certificates.get(url);
    expect(a.fingerprint256).toBe(certificate.fingerprint256);
    expect(b).toBe(a);
    expect(gets).toEqual([TEST_SNS_CERT_URL]);
  });

  it('keeps at most its bound, dropping the least recently used, and fetches again after a failure', async () => {
    const pems: Record<string, string> = {};
    const urls = ['a', 'b', 'c'].map((name) => `https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-${name}.pem`);
    for (const url of urls) pems[url] = TEST_SNS_CERT;
    const { fetch, gets } = testSnsFetch(pems);
    const certificates = new SnsCertificates(fetch, 2);
    await certificates.get(new URL(urls[0]!));
    await certificates.get(new URL(urls[1]!));
    await certificates.get(new URL(urls[0]!));
    await certificates.get(new URL(urls[2]!)); // drops b, the least recently used
    await certificates.get(new URL(urls[0]!));
    await certificates.get(new URL(urls[1]!));
    expect(gets).toEqual([urls[0], urls[1], urls[2], urls[1]]);
    const missing = new URL('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-gone.pem');
    await expect(certificates.get(missing)).rejects.toThrow();
    await expect(certificates.get(missing)).rejects.toThrow();
    expect(gets.filter((url) => url === missing.href)).toHaveLength(2);
  });
});

describe('sns: CloudWatch alarms and plain messages (adapter)', () => {
  it('maps ALARM to firing and OK to resolved as the same alert, per alarm', () => {
    const alarm = alertOf('sns-cloudwatch-alarm.json');
    const ok = alertOf('sns-cloudwatch-ok.json');
    expect(alarm).toMatchObject({
      source: 'cloudwatch',
      status: 'firing',
      severity: 'error',
      severityRaw: 'ALARM',
      title: 'intranet-api 5xx rate',
      startedAt: '2027-01-14T09:12:33.123Z',
      description: "More than 5% of the intranet API's answers are 5xx. Runbook: https://wiki.example.com/runbooks/intranet-api",
    });
    expect(alarm.summary).toMatch(/^Threshold Crossed: 3 out of the last 5 datapoints/);
    expect(alarm.labels).toEqual({
      alarm: 'intranet-api 5xx rate',
      account: '123456789012',
      region: 'EU (Ireland)',
      metric: 'HTTPCode_Target_5XX_Count',
      namespace: 'AWS/ApplicationELB',
      LoadBalancer: 'app/intranet-api/50dc6c495c0c9188',
    });
    expect(alarm.links[0]?.url).toBe('https://console.aws.amazon.com/cloudwatch/home?region=eu-west-1#alarmsV2:alarm/intranet-api%205xx%20rate');
    expect(ok).toMatchObject({ status: 'resolved', fingerprint: alarm.fingerprint, groupKey: alarm.groupKey, endedAt: '2027-01-14T09:41:02.877Z' });
  });

  it('maps INSUFFICIENT_DATA to a warning-level firing of the same alarm, which its next OK resolves', () => {
    const insufficient = alertOf('sns-cloudwatch-insufficient-data.json');
    expect(insufficient).toMatchObject({ status: 'firing', severity: 'warning', severityRaw: 'INSUFFICIENT_DATA' });
    expect(insufficient.fingerprint).toBe(alertOf('sns-cloudwatch-ok.json').fingerprint);
  });

  it('keeps a message that is not an alarm as text, titled by its Subject, one alert per message', () => {
    const text = alertOf('sns-plain-text.json');
    expect(text).toMatchObject({
      source: 'sns',
      status: 'firing',
      title: 'Hourly backup of intranet-db failed',
      summary: 'The hourly snapshot job for intranet-db stopped at 09:29 UTC.\nError: snapshot quota exceeded in eu-west-1.',
      labels: { topic: 'intranet-alarms' },
    });
    const { Subject: _subject, ...untitled } = ownFixture('sns-plain-text.json');
    const again = parseAlerts('sns', { ...untitled, MessageId: 'another' })[0]!.alerts[0]!;
    expect(again.title).toBe('The hourly snapshot job for intranet-db stopped at 09:29 UTC.');
    expect(again.fingerprint).not.toBe(text.fingerprint);
  });

  it('reads no alert from a subscription or unsubscribe confirmation', () => {
    const confirmation = ownFixture('sns-subscription-confirmation.json');
    expect(parseAlerts('sns', confirmation)).toEqual([]);
    expect(parseAlerts('sns', { ...confirmation, Type: 'UnsubscribeConfirmation' })).toEqual([]);
  });
});
