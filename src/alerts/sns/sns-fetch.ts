import { request } from 'undici';

/**
 * A GET of an SNS URL (a signing certificate, a subscription's `SubscribeURL`) answering the body as
 * text; rejects when the answer is not a 2xx or too large. The alert route calls it only with URLs that
 * passed `snsUrl`. Passed in where the alert routes are built, so tests serve a test certificate and
 * record the confirmations without reaching the internet.
 */
export type SnsFetch = (url: URL) => Promise<string>;

/** SNS waits 15 s for an endpoint's answer; a certificate fetch must leave the rest of the request time to spare. */
export const SNS_FETCH_TIMEOUT_MS = 5_000;
/** A certificate is about 2 KiB and a confirmation's answer less: anything far bigger is not SNS. */
export const SNS_FETCH_MAX_BYTES = 64 * 1024;

/** Why an SNS GET failed: the status, the size, the timeout or the network. */
export class SnsFetchFailure extends Error {}

/**
 * The default `SnsFetch`: undici's `request`, no redirects followed (a redirect could leave the SNS
 * host), `SNS_FETCH_TIMEOUT_MS` for the whole exchange, at most `SNS_FETCH_MAX_BYTES` read.
 *
 * @example const pem = await fetchFromSns(new URL('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem'));
 */
export const fetchFromSns: SnsFetch = async (url) => {
  const signal = AbortSignal.timeout(SNS_FETCH_TIMEOUT_MS);
  let response;
  try {
    response = await request(url, { method: 'GET', signal });
  } catch (error) {
    throw new SnsFetchFailure(`GET ${url.host}${url.pathname}: ${timedOut(error) ? 'no answer in time' : 'not reachable'}`, { cause: error });
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump();
    throw new SnsFetchFailure(`GET ${url.host}${url.pathname}: answered ${response.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > SNS_FETCH_MAX_BYTES) {
        response.body.destroy();
        throw new SnsFetchFailure(`GET ${url.host}${url.pathname}: the answer is larger than ${SNS_FETCH_MAX_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof SnsFetchFailure) throw error;
    throw new SnsFetchFailure(`GET ${url.host}${url.pathname}: ${timedOut(error) ? 'no answer in time' : 'the answer broke off'}`, { cause: error });
  }
  return Buffer.concat(chunks).toString('utf8');
};

function timedOut(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
