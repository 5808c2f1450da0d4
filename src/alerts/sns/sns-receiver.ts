import { InvalidInputError } from '../../errors';
import { parseOrThrow } from '../../validation';
import { SnsCertificates } from './sns-certificates';
import { AlertSourceUnreachableError, SnsTopicRefusedError } from './sns-errors';
import { fetchFromSns, type SnsFetch } from './sns-fetch';
import { snsCertificateUrl, snsUrl } from './sns-hosts';
import { SnsMessageSchema, type SnsMessage } from './sns-message';
import { snsMessageFresh, verifySnsSignature } from './sns-signature';

/** What one SNS input accepts: the topics whose messages it takes, and the manifest key that lists them (for errors). */
export interface SnsInputSettings {
  topics: readonly string[];
  /** `alerts.<n>.options.topics`. */
  key: string;
}

/**
 * What a verified message asks for: `unverified` (a wrong signature, a certificate off the SNS hosts,
 * a message older than SNS keeps one) is answered 401, nothing fetched but, at most, the certificate
 * from an SNS host; `notification` carries the message for the adapter.
 */
export type SnsReceipt = { kind: 'unverified' } | { kind: 'confirmed' } | { kind: 'unsubscribed' } | { kind: 'notification'; message: SnsMessage };

/**
 * The sender check of the `sns` format, and the subscription handshake: parse the envelope → the
 * certificate URL on an SNS host → a recent `Timestamp` → the certificate (cached) → the signature → the topic allow-list →
 * confirm, acknowledge or hand the notification on. Nothing is fetched on a message's word before its
 * URL passed the host check, and nothing is confirmed before the signature and the topic did.
 * Throws `SnsTopicRefusedError` (403), `AlertSourceUnreachableError` (503) and `InvalidInputError` (400).
 *
 * @example
 * const sns = new SnsReceiver(fetchFromSns);
 * const receipt = await sns.receive(body, { topics: ['arn:aws:sns:eu-west-1:123456789012:alerts'], key }, clock.now());
 */
export class SnsReceiver {
  private readonly certificates: SnsCertificates;

  constructor(private readonly fetch: SnsFetch = fetchFromSns) {
    this.certificates = new SnsCertificates(fetch);
  }

  async receive(body: unknown, settings: SnsInputSettings, nowMs: number): Promise<SnsReceipt> {
    const message = parseOrThrow(SnsMessageSchema, body, 'body');
    if (!(await this.verified(message, nowMs))) return { kind: 'unverified' };
    if (!settings.topics.includes(message.TopicArn)) throw new SnsTopicRefusedError(message.TopicArn, settings.key);
    if (message.Type === 'SubscriptionConfirmation') {
      await this.confirm(message);
      return { kind: 'confirmed' };
    }
    if (message.Type === 'UnsubscribeConfirmation') return { kind: 'unsubscribed' };
    return { kind: 'notification', message };
  }

  private async verified(message: SnsMessage, nowMs: number): Promise<boolean> {
    const url = snsCertificateUrl(message.SigningCertURL);
    // a stale message is refused before its certificate is fetched: it cannot be a delivery of SNS's
    if (!url || !snsMessageFresh(message, nowMs)) return false;
    let certificate;
    try {
      certificate = await this.certificates.get(url);
    } catch (error) {
      throw new AlertSourceUnreachableError(`the signing certificate ${url.href}`, { cause: error });
    }
    return verifySnsSignature(message, certificate, nowMs);
  }

  /** spec: SNS Developer Guide, "Step 1: Make sure your endpoint is ready" — visit `SubscribeURL` (a GET) to confirm. */
  private async confirm(message: SnsMessage): Promise<void> {
    const url = snsUrl(message.SubscribeURL);
    if (!url) throw new InvalidInputError('body.SubscribeURL', 'body.SubscribeURL: not an https URL on an SNS host (sns.<region>.amazonaws.com)');
    try {
      await this.fetch(url);
    } catch (error) {
      throw new AlertSourceUnreachableError(`the subscription's SubscribeURL (${url.host})`, { cause: error });
    }
  }
}
