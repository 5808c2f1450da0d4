import { InvalidInputError } from '../errors';
import type { Secrets } from '../store/secrets';

/**
 * The token of an incoming webhook, from its URL kept encrypted in `store.secrets`
 * (spec: Incoming webhooks: `POST {base_url}/api/open/v1/incoming/{token}`).
 */
export async function incomingToken(secrets: Pick<Secrets, 'get'>, ref: string): Promise<string> {
  const url = await secrets.get(ref);
  const token = url === undefined ? undefined : /\/incoming\/([^/?#]+)/.exec(url)?.[1];
  // the message names the secret, never its value
  if (!token) throw new InvalidInputError('entry.webhook.urlSecretRef', `entry.webhook.urlSecretRef: secret "${ref}" holds no incoming-webhook URL`);
  try {
    return decodeURIComponent(token);
  } catch {
    // a malformed escape can never be sent: a dead letter naming the secret, not a URIError retried for a day
    throw new InvalidInputError(
      'entry.webhook.urlSecretRef',
      `entry.webhook.urlSecretRef: secret "${ref}" holds a URL whose token is not valid percent-encoding`,
    );
  }
}
