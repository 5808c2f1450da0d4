import { request, type Dispatcher } from 'undici';

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

/** The limits of `createSnsFetch`; the defaults are `SNS_FETCH_TIMEOUT_MS` and `SNS_FETCH_MAX_BYTES`. */
export interface SnsFetchLimits {
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * An `SnsFetch` over undici's `request`: no redirects followed (a redirect could leave the SNS host),
 * `timeoutMs` for the whole exchange, at most `maxBytes` read.
 *
 * @example const pem = await createSnsFetch()(new URL('https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem'));
 */
export function createSnsFetch(limits: SnsFetchLimits = {}): SnsFetch {
  const timeoutMs = limits.timeoutMs ?? SNS_FETCH_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? SNS_FETCH_MAX_BYTES;
  return async (url) => {
    const where = `GET ${url.host}${url.pathname}`;
    let response;
    try {
      response = await request(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new SnsFetchFailure(`${where}: ${timedOut(error) ? 'no answer in time' : 'not reachable'}`, { cause: error });
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await response.body.dump();
      throw new SnsFetchFailure(`${where}: answered ${response.statusCode}`);
    }
    return readLimited(response.body, maxBytes, where);
  };
}

/** The default `SnsFetch`, with the default limits. */
export const fetchFromSns: SnsFetch = createSnsFetch();

async function readLimited(body: Dispatcher.ResponseData['body'], maxBytes: number, where: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        body.destroy();
        throw new SnsFetchFailure(`${where}: the answer is larger than ${maxBytes} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof SnsFetchFailure) throw error;
    throw new SnsFetchFailure(`${where}: ${timedOut(error) ? 'no answer in time' : 'the answer broke off'}`, { cause: error });
  }
  return Buffer.concat(chunks).toString('utf8');
}

function timedOut(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}
