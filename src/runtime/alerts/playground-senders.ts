import { ALERT_SAMPLES, readAlertSample, sampleSource } from '../../alerts/alert-samples';
import { signatureSchemeOf, signedHeaders } from '../../alerts/input-signature';
import { manifestForTenant, type BotManifest } from '../../bots/manifest';
import type { RuntimeInspection } from '../runtime-facade';

/**
 * One sample alert the sandbox's playground can send to an input of this runtime: where, with which
 * credential, and the body. Handed to the sandbox (a process of this machine, in sandbox mode); the page
 * sees only the names, never the address's credential or the headers.
 */
export interface PlaygroundSender {
  id: string;
  tenant: string;
  bot: string;
  input: string;
  /** The source whose sample it is: the format, or a generic input's preset. */
  source: string;
  state: 'firing' | 'resolved';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The samples every alert input of a runtime can be sent: one per documented state of its source, with
 * the input's credential (bearer, basic or a query token) and, for an input that checks a signature, the
 * signature of that very body (GitHub's, Sentry's, Grafana's without a timestamp; GitLab's token). Inputs
 * whose senders sign a time too (Standard Webhooks, Grafana with a timestamp) or that AWS signs (SNS) get
 * none: a sample signed once would go stale.
 *
 * @example playgroundSenders(runtime.inspect()) // [{ id: 'sandbox/alerts/alertmanager/firing', url: 'http://127.0.0.1:3000/alerts/alerts/alertmanager', ... }]
 */
export function playgroundSenders(inspection: Pick<RuntimeInspection, 'url' | 'bots' | 'deployments' | 'config'>): PlaygroundSender[] {
  if (!inspection.url) return [];
  const defaultTenant = inspection.config.tenants[0]?.id;
  const senders: PlaygroundSender[] = [];
  for (const { tenant, bot } of inspection.deployments) {
    const loaded = inspection.bots.find((b) => b.name === bot);
    if (!loaded) continue;
    const manifest = manifestForTenant(loaded.manifest, tenant);
    const prefix = tenant === defaultTenant ? '' : `/t/${encodeURIComponent(tenant)}`;
    for (const input of manifest.alerts) {
      const source = sampleSource(input.format, input.options);
      const credential = credentialOf(input.auth);
      const scheme = input.signing && signatureSchemeOf(input.format, input.options?.mapping, input.signing.scheme);
      // an input checks a credential, a signature, or both: a sample carries what it checks, or is not offered
      if (!source || (!credential && !input.signing) || (input.signing && !scheme)) continue;
      const address = new URL(`${inspection.url}${prefix}/alerts/${encodeURIComponent(bot)}/${encodeURIComponent(input.input)}`);
      if (credential?.query) address.searchParams.set('token', credential.query);
      for (const sample of ALERT_SAMPLES[source] ?? []) {
        const body = readAlertSample(sample);
        const signed = input.signing && scheme ? signedHeaders(scheme, input.signing, Buffer.from(body ?? '')) : {};
        if (body === undefined || signed === undefined) continue;
        senders.push({
          id: `${tenant}/${bot}/${input.input}/${sample.state}`,
          tenant,
          bot,
          input: input.input,
          source,
          state: sample.state,
          url: address.toString(),
          headers: { 'content-type': 'application/json', ...credential?.headers, ...signed },
          body,
        });
      }
    }
  }
  return senders;
}

/**
 * Tells the sandbox's playground which samples it can send (`PUT /_sandbox/playground/senders`). The
 * playground is a convenience: a sandbox that does not answer is left alone, and the error is returned
 * for the caller to log.
 */
export async function offerSendersToPlayground(sandboxUrl: string, senders: readonly PlaygroundSender[]): Promise<Error | undefined> {
  try {
    const res = await fetch(`${sandboxUrl}/_sandbox/playground/senders`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ senders }),
      signal: AbortSignal.timeout(5_000),
    });
    if (!res.ok) return new Error(`the sandbox answered ${res.status} to the playground's alert samples`);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

type AlertAuth = BotManifest['alerts'][number]['auth'];

function credentialOf(auth: AlertAuth): { headers: Record<string, string>; query?: string } | undefined {
  if (auth === undefined) return undefined;
  if ('bearer' in auth) return { headers: { authorization: `Bearer ${auth.bearer}` } };
  if ('basic' in auth) return { headers: { authorization: `Basic ${Buffer.from(`${auth.basic.username}:${auth.basic.password}`).toString('base64')}` } };
  return { headers: {}, query: auth.query_token };
}
