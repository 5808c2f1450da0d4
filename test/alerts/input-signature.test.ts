import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { validateAlertInputs } from '../../src/alerts/alert-input';
import { signatureSchemeOf, signedHeaders, verifySignature } from '../../src/alerts/input-signature';
import { BotManifestSchema } from '../../src/bots/manifest';
import { fixture } from './load-fixture';
import { BEARER, harness, post } from './input-route-harness';

const hmac = (secret: string, text: string): string => createHmac('sha256', secret).update(text).digest('hex');

describe('signed alert senders (issue #27): the signature is checked over the body as received, before it is parsed', () => {
  const grafanaBody = JSON.stringify(fixture('grafana-firing.json'));

  describe('Grafana (X-Grafana-Alerting-Signature, with a timestamp header)', () => {
    const signed = (nowS: number, secret = 'gf-hmac-secret', body = grafanaBody) => ({
      ...BEARER,
      'x-grafana-alerting-timestamp': String(nowS),
      'x-grafana-alerting-signature': hmac(secret, `${nowS}:${body}`),
    });

    it('accepts a correct signature of a recent timestamp', async () => {
      const h = await harness();
      const res = await post(h, '/alerts/alerts/grafana-signed', grafanaBody, signed(h.clock.now() / 1000));
      expect(res.statusCode).toBe(202);
      expect(h.sent.length).toBeGreaterThan(0);
    });

    it('refuses a forged signature with 401 and queues nothing, even with the right bearer token', async () => {
      const h = await harness();
      const res = await post(h, '/alerts/alerts/grafana-signed', grafanaBody, signed(h.clock.now() / 1000, 'not-the-secret'));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ error: 'unauthorized', message: 'missing, wrong or stale signature for this alert input' });
      expect(h.sent).toEqual([]);
    });

    it('refuses a body changed after it was signed', async () => {
      const h = await harness();
      const headers = signed(h.clock.now() / 1000);
      const res = await post(h, '/alerts/alerts/grafana-signed', grafanaBody.replace('firing', 'resolved'), headers);
      expect(res.statusCode).toBe(401);
      expect(h.sent).toEqual([]);
    });

    it('refuses a correctly signed timestamp more than five minutes old (a replay), and a missing signature', async () => {
      const h = await harness();
      const stale = await post(h, '/alerts/alerts/grafana-signed', grafanaBody, signed(h.clock.now() / 1000 - 6 * 60));
      expect(stale.statusCode).toBe(401);
      const unsigned = await post(h, '/alerts/alerts/grafana-signed', grafanaBody, BEARER);
      expect(unsigned.statusCode).toBe(401);
      expect(h.sent).toEqual([]);
      // which input was refused, never the signature offered
      expect(h.logs.join('\n')).toContain('signature is missing, wrong or too old');
    });

    it('refuses a body that is not even JSON with 401, not 400, when it is unsigned: nothing is parsed before the signature', async () => {
      const h = await harness();
      const res = await post(h, '/alerts/alerts/grafana-signed', '{not json', BEARER);
      expect(res.statusCode).toBe(401);
    });
  });

  describe('Sentry (Sentry-Hook-Signature over the body with the client secret)', () => {
    const body = JSON.stringify(fixture('sentry-issue.json'));

    it('accepts a correct signature and refuses a forged or missing one', async () => {
      const h = await harness();
      const ok = await post(h, '/alerts/alerts/sentry?token=sentry-token', body, { 'sentry-hook-signature': hmac('sentry-client-secret', body) });
      expect(ok.statusCode).toBe(202);
      const sent = h.sent.length;
      const forged = await post(h, '/alerts/alerts/sentry?token=sentry-token', body, { 'sentry-hook-signature': hmac('guess', body) });
      expect(forged.statusCode).toBe(401);
      const missing = await post(h, '/alerts/alerts/sentry?token=sentry-token', body, {});
      expect(missing.statusCode).toBe(401);
      expect(h.sent.length).toBe(sent);
    });
  });

  it('refuses signing: on an input whose source signs nothing intrabot can check, naming the field', () => {
    const manifest = BotManifestSchema.parse({
      name: 'alerts',
      display_name: 'Alerts',
      targets: { ops: { wall: 1 } },
      alerts: [{ input: 'am', format: 'alertmanager', auth: { bearer: 'am-token' }, signing: { secret: 's' }, targets: ['ops'] }],
    });
    expect(() => validateAlertInputs(manifest, 'sandbox')).toThrow(
      /^alert input "am" of bot "alerts" \(alerts\.0\): its source signs nothing intrabot can check/,
    );
  });

  it("checks a generic input's sender by the scheme its signing names (GitHub's release events through a mapping of one's own)", () => {
    expect(signatureSchemeOf('generic', { title: '{{release.name}}' }, 'github')).toBe('github');
    expect(signatureSchemeOf('generic', { title: '{{name}}' }, 'gitlab')).toBe('gitlab');
    expect(signatureSchemeOf('generic', { title: '{{name}}' }, undefined)).toBeUndefined();
    const manifest = BotManifestSchema.parse({
      name: 'releases',
      display_name: 'Releases',
      targets: { ops: { wall: 1 } },
      alerts: [
        {
          input: 'rel',
          format: 'generic',
          signing: { secret: 'gh-secret', scheme: 'github' },
          targets: ['ops'],
          options: { mapping: { title: '{{release.name}}' } },
        },
      ],
    });
    expect(() => validateAlertInputs(manifest, 'connected')).not.toThrow();
  });

  it('refuses the sandbox secret as a signing secret in connected mode, naming the field', () => {
    const manifest = BotManifestSchema.parse({
      name: 'releases',
      display_name: 'Releases',
      targets: { ops: { wall: 1 } },
      alerts: [{ input: 'gh', format: 'github', signing: { secret: 'sandbox-alert-token' }, targets: ['ops'] }],
    });
    expect(() => validateAlertInputs(manifest, 'sandbox')).not.toThrow();
    expect(() => validateAlertInputs(manifest, 'connected')).toThrow(/^alert input "gh" of bot "releases" \(alerts\.0\) signs with the sandbox secret/);
  });
});

describe('signing a fixed body as its sender would (the playground sends signed samples)', () => {
  const body = Buffer.from('{"action":"completed"}');
  it.each(['github', 'sentry', 'gitlab', 'grafana'] as const)('gives %s headers that the input verifies, and a changed body fails them', (scheme) => {
    const headers = signedHeaders(scheme, { secret: 's3cret' }, body)!;
    expect(verifySignature(scheme, { secret: 's3cret' }, body, headers, Date.now())).toBe('ok');
    if (scheme !== 'gitlab') expect(verifySignature(scheme, { secret: 's3cret' }, Buffer.from('{"action":"x"}'), headers, Date.now())).toBe('mismatch');
  });

  it('gives none for a signature that carries a time: it would go stale', () => {
    expect(signedHeaders('grafana', { secret: 's3cret', timestamp_header: 'X-Grafana-Alerting-Timestamp' }, body)).toBeUndefined();
  });
});
