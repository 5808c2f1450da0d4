import { describe, expect, it } from 'vitest';
import { alertInputFromManifest, SANDBOX_ALERT_TOKEN, validateAlertInputs } from '../../src/alerts/alert-input';
import { checkAlertAuth, redactQueryToken } from '../../src/alerts/input-auth';
import { BotManifestSchema, type BotManifest } from '../../src/bots/manifest';
import { ConfigError } from '../../src/errors';

function manifestWith(alerts: unknown[], targets: Record<string, unknown> = { wall: { wall: 1 }, chat: { chat: 2 } }): BotManifest {
  return BotManifestSchema.parse({ name: 'alerts', display_name: 'Alerts', targets, alerts });
}

function thrown(run: () => void): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('validateAlertInputs', () => {
  it('refuses an input without a credential, naming the input', () => {
    const manifest = manifestWith([{ input: 'grafana', format: 'grafana', auth: { bearer: 'x' }, targets: ['wall'] }]);
    // what a manifest built without the schema (or an override) could hold
    const bare = { ...manifest, alerts: [{ ...manifest.alerts[0], auth: undefined }] } as unknown as BotManifest;
    for (const mode of ['connected', 'sandbox'] as const) {
      const error = thrown(() => validateAlertInputs(bare, mode));
      expect(error.key).toBe('alerts.0.auth');
      expect(error.message).toContain('alert input "grafana"');
    }
  });

  it('refuses the sandbox credential in connected mode only', () => {
    const manifest = manifestWith([{ input: 'alertmanager', format: 'alertmanager', auth: { bearer: SANDBOX_ALERT_TOKEN }, targets: ['wall'] }]);
    expect(thrown(() => validateAlertInputs(manifest, 'connected')).message).toContain('alert input "alertmanager"');
    expect(() => validateAlertInputs(manifest, 'sandbox')).not.toThrow();
  });

  it('refuses an input with nowhere to send when the bot has several targets', () => {
    const manifest = manifestWith([{ input: 'slack', format: 'slack', auth: { query_token: 't0k3n' } }]);
    expect(thrown(() => validateAlertInputs(manifest, 'connected')).key).toBe('alerts.0.targets');
  });

  it('sends to the only target when the input names none', () => {
    const manifest = manifestWith([{ input: 'slack', format: 'slack', auth: { query_token: 't0k3n' } }], { wall: { wall: 1 } });
    expect(() => validateAlertInputs(manifest, 'connected')).not.toThrow();
    expect(alertInputFromManifest(manifest, 'slack')?.targets).toEqual(['wall']);
  });

  it('refuses a generic input without a mapping, an unknown preset or a bad mapping', () => {
    const without = manifestWith([{ input: 'kuma', format: 'generic', auth: { bearer: 'x' }, targets: ['wall'] }]);
    expect(thrown(() => validateAlertInputs(without, 'connected')).key).toBe('alerts.0.options.mapping');
    const unknown = manifestWith([{ input: 'kuma', format: 'generic', auth: { bearer: 'x' }, targets: ['wall'], options: { mapping: 'uptime-kumaa' } }]);
    expect(thrown(() => validateAlertInputs(unknown, 'connected')).message).toContain('unknown mapping preset "uptime-kumaa"');
    const bad = manifestWith([{ input: 'kuma', format: 'generic', auth: { bearer: 'x' }, targets: ['wall'], options: { mapping: { summary: '{{msg}}' } } }]);
    expect(thrown(() => validateAlertInputs(bad, 'connected')).message).toContain('alerts.0.options.mapping.title');
  });

  it('refuses a max_length too small to hold a message, naming it', () => {
    const manifest = manifestWith([{ input: 'am', format: 'alertmanager', auth: { bearer: 'x' }, targets: ['wall'], options: { max_length: 10 } }]);
    expect(thrown(() => validateAlertInputs(manifest, 'connected')).message).toContain('alerts.0.options.max_length');
  });
});

describe('alertInputFromManifest', () => {
  it('compiles the routes, with the input targets taking what no route matched', () => {
    const manifest = manifestWith([
      {
        input: 'am',
        format: 'alertmanager',
        auth: { bearer: 'x' },
        targets: ['wall'],
        route: [{ match: { severity: 'critical' }, targets: ['chat'] }],
        options: { max_length: 1000 },
      },
    ]);
    const input = alertInputFromManifest(manifest, 'am');
    expect(input).toMatchObject({ bot: 'alerts', input: 'am', format: 'alertmanager', targets: ['wall'], maxLength: 1000 });
    expect(input?.routing.default).toEqual(['wall']);
    expect(input?.routing.rules[0]?.targets).toEqual(['chat']);
    expect(alertInputFromManifest(manifest, 'other')).toBeUndefined();
  });
});

describe('checkAlertAuth', () => {
  it('accepts only the configured kind of credential with the exact value', () => {
    expect(checkAlertAuth({ bearer: 's3cret' }, { authorization: 'Bearer s3cret', queryToken: undefined })).toBe(true);
    expect(checkAlertAuth({ bearer: 's3cret' }, { authorization: 'bearer s3cret', queryToken: undefined })).toBe(true);
    expect(checkAlertAuth({ bearer: 's3cret' }, { authorization: 'Bearer s3cret2', queryToken: undefined })).toBe(false);
    expect(checkAlertAuth({ bearer: 's3cret' }, { authorization: undefined, queryToken: 's3cret' })).toBe(false);
    const basic = { basic: { username: 'am', password: 'p:w' } };
    expect(checkAlertAuth(basic, { authorization: `Basic ${Buffer.from('am:p:w').toString('base64')}`, queryToken: undefined })).toBe(true);
    expect(checkAlertAuth(basic, { authorization: `Basic ${Buffer.from('am:p').toString('base64')}`, queryToken: undefined })).toBe(false);
    expect(checkAlertAuth({ query_token: 'q' }, { authorization: undefined, queryToken: 'q' })).toBe(true);
    expect(checkAlertAuth({ query_token: 'q' }, { authorization: 'Bearer q', queryToken: undefined })).toBe(false);
  });

  it('redacts the token of a URL for logs', () => {
    expect(redactQueryToken('/alerts/a/b?x=1&token=abc&y=2')).toBe('/alerts/a/b?x=1&token=[redacted]&y=2');
  });
});
