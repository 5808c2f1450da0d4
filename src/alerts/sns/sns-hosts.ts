// SNS's regional endpoints: sns.<region>.amazonaws.com, and sns.<region>.amazonaws.com.cn in the China
// partition (cn-north-1, cn-northwest-1), which signs with certificates served from its own endpoints
const SNS_HOST = /^sns\.[a-z]{2,4}(?:-[a-z]+)+-\d\.amazonaws\.com(?:\.cn)?$/;

/**
 * The URL when it is one intrabot may call on a message's word: https, on an SNS regional endpoint, on
 * the default port, without credentials in it; undefined otherwise. A message names its signing
 * certificate and its confirmation link itself, so a forged one could otherwise make the runtime fetch
 * any URL (server-side request forgery) or trust a key of the forger's choosing.
 *
 * @example snsUrl('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem') // URL
 * @example snsUrl('https://sns.eu-west-1.amazonaws.com.evil.example/x.pem') // undefined
 */
export function snsUrl(text: string | undefined): URL | undefined {
  if (text === undefined || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '') return undefined;
  return SNS_HOST.test(url.hostname) ? url : undefined;
}

/** A signing certificate's URL: an SNS URL whose path names a `.pem` file (as every SNS certificate URL does). */
export function snsCertificateUrl(text: string | undefined): URL | undefined {
  const url = snsUrl(text);
  return url && url.pathname.endsWith('.pem') && url.search === '' ? url : undefined;
}
