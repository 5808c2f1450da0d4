import { verify, type X509Certificate } from 'node:crypto';
import { SIGNATURE_TOLERANCE_MS } from '../input-signature';
import { snsStringToSign, type SnsMessage } from './sns-message';

// spec: "Verifying the signatures of Amazon SNS messages": SignatureVersion 1 is SHA1withRSA,
// SignatureVersion 2 SHA256withRSA, both over the string to sign
const DIGESTS = { '1': 'sha1', '2': 'sha256' } as const;

/**
 * Whether `Signature` is the RSA signature, by the certificate's key, of the message's string to sign,
 * with the digest its `SignatureVersion` names, and the certificate was valid at `nowMs`. Pure: the
 * certificate is fetched (and its URL checked) by the caller.
 *
 * @example verifySnsSignature(message, certificate, clock.now()) // true
 */
export function verifySnsSignature(message: SnsMessage, certificate: X509Certificate, nowMs: number): boolean {
  // written so that a date that does not parse (NaN) refuses too
  if (!(nowMs >= Date.parse(certificate.validFrom) && nowMs <= Date.parse(certificate.validTo))) return false;
  const signature = Buffer.from(message.Signature, 'base64');
  if (signature.length === 0) return false;
  try {
    return verify(DIGESTS[message.SignatureVersion], Buffer.from(snsStringToSign(message), 'utf8'), certificate.publicKey, signature);
  } catch {
    // a key that is not RSA, or a signature of the wrong length: not SNS's signature
    return false;
  }
}

/** spec: SNS Developer Guide, "Setting Amazon SNS delivery retry policies": "The maximum lifetime of a message in the system is one hour". */
export const SNS_MESSAGE_LIFETIME_MS = 60 * 60_000;

/**
 * Whether a message's (signed) `Timestamp` is one SNS could still be delivering at `nowMs`: no older
 * than SNS keeps a message, and not from the future, either by more than `SIGNATURE_TOLERANCE_MS` of
 * clock difference. An older one is a replay of a captured message, refused like a wrong signature.
 *
 * @example snsMessageFresh({ ...message, Timestamp: '2027-01-14T09:12:33.204Z' }, Date.parse('2027-01-14T09:45:00Z')) // true
 */
export function snsMessageFresh(message: SnsMessage, nowMs: number): boolean {
  const sent = Date.parse(message.Timestamp);
  return sent >= nowMs - SNS_MESSAGE_LIFETIME_MS - SIGNATURE_TOLERANCE_MS && sent <= nowMs + SIGNATURE_TOLERANCE_MS;
}
