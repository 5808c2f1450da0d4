import { InvalidInputError } from '../errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../webhooks/json-depth';

/**
 * The JSON a monitoring tool sent. Most send `application/json`; Slack-compatible senders may use
 * the legacy form encoding (`payload=<json>`) or no content type at all, so the bytes decide. JSON
 * nested deeper than the webhook receiver allows (`MAX_JSON_DEPTH`) is refused before it is parsed:
 * it would overflow the stack of whatever reads it recursively after.
 */
export function decodeAlertBody(raw: Buffer | undefined, contentType: string | undefined): unknown {
  const text = raw?.toString('utf8').trim() ?? '';
  if (text === '') throw new InvalidInputError('body', 'body: empty; expected a JSON object');
  if ((contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw new InvalidInputError('body.payload', 'body.payload: a form-encoded body needs a payload field holding JSON');
    return parseJson(payload, 'body.payload');
  }
  return parseJson(text, 'body');
}

function parseJson(text: string, field: string): unknown {
  if (exceedsJsonDepth(Buffer.from(text, 'utf8'), MAX_JSON_DEPTH)) {
    throw new InvalidInputError(field, `${field}: nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidInputError(field, `${field}: not valid JSON`);
  }
}
