/**
 * SNS messages signed the way AWS signs them, with the TEST-ONLY key pair in
 * test/alerts/fixtures/sns-test-signing/ (a self-signed certificate made once with openssl; it is not an
 * AWS certificate and proves nothing outside these tests), and an `SnsFetch` that serves its certificate.
 */
import { readFileSync } from 'node:fs';
import { sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { snsStringToSign, type SnsMessage } from '../../src/alerts/sns/sns-message';
import type { SnsFetch } from '../../src/alerts/sns/sns-fetch';

const DIR = new URL('../alerts/fixtures/sns-test-signing/', import.meta.url);
export const TEST_SNS_KEY = readFileSync(fileURLToPath(new URL('test-only-key.pem', DIR)), 'utf8');
export const TEST_SNS_CERT = readFileSync(fileURLToPath(new URL('test-only-cert.pem', DIR)), 'utf8');
/** Where the fixtures say their certificate is; `testSnsFetch` serves `TEST_SNS_CERT` there. */
export const TEST_SNS_CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-00000000000000000000000000test.pem';
/** The topic of the fixtures. */
export const TEST_SNS_TOPIC = 'arn:aws:sns:eu-west-1:123456789012:intranet-alarms';

/** The message with `Signature` (and `SignatureVersion`) set by the test key over AWS's string to sign. */
export function signSns<T extends Record<string, unknown>>(message: T, version: '1' | '2' = '1', key = TEST_SNS_KEY): T {
  const unsigned = { ...message, SignatureVersion: version };
  const text = snsStringToSign(unsigned as unknown as SnsMessage);
  const signature = sign(version === '1' ? 'sha1' : 'sha256', Buffer.from(text, 'utf8'), key).toString('base64');
  return { ...unsigned, Signature: signature };
}

/** A recording `SnsFetch`: every GET's URL in `gets`; the test certificate at its URL, `answers` elsewhere, else a rejection. */
export function testSnsFetch(answers: Record<string, string> = {}): { fetch: SnsFetch; gets: string[] } {
  const gets: string[] = [];
  const fetch: SnsFetch = async (url) => {
    gets.push(url.href);
    if (url.href === TEST_SNS_CERT_URL) return TEST_SNS_CERT;
    if (url.searchParams.get('Action') === 'ConfirmSubscription') return '<ConfirmSubscriptionResponse/>';
    const answer = answers[url.href];
    if (answer === undefined) throw new Error(`test SNS fetch: nothing served at ${url.href}`);
    return answer;
  };
  return { fetch, gets };
}
