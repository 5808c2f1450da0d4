import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/bots/manifest-loader';
import { ManifestError } from '../../src/bots/manifest-error';
import { deploysTo, manifestForTenant } from '../../src/bots/manifest';

const FILE = 'bots/x/bot.yaml';

/** The example of DESIGN.md, env refs and all. */
const DESIGN_EXAMPLE = `name: kudos                    # slug, unique
display_name: Kudos Bot        # the bot user's name on the platform
avatar_url: https://example.com/kudos.png
events: [post.created, { event: comment.created, walls: [3] }]
schedules: [{ job: digest, cron: "0 9 * * MON", timezone: Europe/Berlin, catch_up: 1h }]
alerts: [{ input: alertmanager, format: alertmanager, auth: { bearer: \${env:ALERT_TOKEN} } }]
reports: [{ report: todoliststats.daily, secret: \${env:TODO_REPORT_SECRET} }]
targets: { team: { wall: "Engineering" }, ops: { incoming_webhook: \${env:OPS_WEBHOOK_URL} } }
config: { greeting: "Congratulations" }   # validated by the bot's own zod schema
`;

const ENV = {
  ALERT_TOKEN: 'tok: #not-a-comment',
  TODO_REPORT_SECRET: 'report-secret',
  OPS_WEBHOOK_URL: 'https://acme.example.com/api/open/v1/incoming/abc123',
};

function errorOf(source: string, env: Record<string, string> = {}): ManifestError {
  try {
    parseManifest(source, FILE, env);
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('expected the manifest to be refused');
}

describe('parseManifest', () => {
  it('accepts the DESIGN.md example and resolves env refs without parsing their values as YAML', () => {
    const manifest = parseManifest(DESIGN_EXAMPLE, FILE, ENV);
    expect(manifest.name).toBe('kudos');
    expect(manifest.events).toEqual([{ event: 'post.created' }, { event: 'comment.created', walls: [3] }]);
    expect(manifest.schedules).toEqual([{ job: 'digest', cron: '0 9 * * MON', timezone: 'Europe/Berlin', catch_up: 3_600_000, overlap: 'skip' }]);
    expect(manifest.alerts[0]?.auth).toEqual({ bearer: 'tok: #not-a-comment' });
    expect(manifest.reports).toEqual([{ report: 'todoliststats.daily', secret: 'report-secret' }]);
    expect(manifest.targets).toEqual({ team: { wall: 'Engineering' }, ops: { incoming_webhook: ENV.OPS_WEBHOOK_URL } });
    expect(manifest.config).toEqual({ greeting: 'Congratulations' });
    expect(manifest.reply).toBe('comment');
    expect(manifest.react_to_bots).toBe(false);
  });

  it('uses the default of ${env:NAME:-default} only when the variable is unset', () => {
    const source = 'name: a\ndisplay_name: "${env:BOT_TITLE:-A Bot} (${env:STAGE:-dev})"\n';
    expect(parseManifest(source, FILE, {}).display_name).toBe('A Bot (dev)');
    expect(parseManifest(source, FILE, { STAGE: 'prod' }).display_name).toBe('A Bot (prod)');
  });

  it('refuses an unclosed ${env: reference, naming the field and its line', () => {
    const error = errorOf('name: a\ndisplay_name: A\ntargets:\n  team: { wall: Company }\nconfig:\n  greeting: ${env:GREETING\n', { GREETING: 'Hi' });
    expect([error.field, error.line]).toEqual(['config.greeting', 6]);
    expect(error.message).toMatch(/^bots\/x\/bot\.yaml:6 config\.greeting: unclosed environment reference "\$\{env:GREETING"/);
  });

  it('suggests the field an unknown one is a typo of', () => {
    const error = errorOf('name: a\ndisplay_name: A\nreplly_to_bots: true\n');
    expect([error.field, error.line]).toEqual(['replly_to_bots', 3]);
    expect(error.message).toBe('bots/x/bot.yaml:3 replly_to_bots: unknown field "replly_to_bots" (did you mean "react_to_bots"?)');
    const nested = errorOf('name: a\ndisplay_name: A\nschedules:\n  - { job: digest, cron: "0 9 * * *", timzone: UTC }\n');
    expect(nested.message).toMatch(/schedules\.0\.timzone: unknown field "timzone" \(did you mean "timezone"\?\)$/);
    const unlike = errorOf('name: a\ndisplay_name: A\nwebhooks: []\n');
    expect(unlike.message).toBe('bots/x/bot.yaml:3 webhooks: unknown field "webhooks"');
  });

  it('names the file, line and field of a missing env ref without a default', () => {
    const error = errorOf('name: a\ndisplay_name: A\nreports:\n  - report: todoliststats.daily\n    secret: ${env:REPORT_SECRET}\n');
    expect(error.code).toBe('invalid_manifest');
    expect([error.file, error.line, error.field]).toEqual([FILE, 5, 'reports.0.secret']);
    expect(error.message).toContain('bots/x/bot.yaml:5 reports.0.secret');
    expect(error.message).toContain('REPORT_SECRET');
  });

  it('ignores env refs in comments', () => {
    expect(parseManifest('# needs ${env:NOTHING}\nname: a\ndisplay_name: A\n', FILE, {}).name).toBe('a');
  });

  it('refuses a filter on an event that cannot be filtered, naming events.1.walls', () => {
    const error = errorOf('name: x\ndisplay_name: X\nevents:\n  - post.created\n  - event: user.registered\n    walls: [3]\n');
    expect(error.message).toMatch(/^bots\/x\/bot\.yaml:6 events\.1\.walls: user\.registered does not take a walls filter/);
  });

  it('refuses a filter of the wrong kind and accepts the right one', () => {
    expect(errorOf('name: x\ndisplay_name: X\nevents: [{ event: post.created, forms: [1] }]\n').field).toBe('events.0.forms');
    const ok = parseManifest('name: x\ndisplay_name: X\nevents: [{ event: achievement.awarded, achievements: [1, "2"] }]\n', FILE, {});
    expect(ok.events).toEqual([{ event: 'achievement.awarded', achievements: [1, 2] }]);
  });

  it('refuses an unknown event, naming it', () => {
    const error = errorOf('name: x\ndisplay_name: X\nevents:\n  - post.created\n  - post.deleted\n');
    expect([error.line, error.field]).toEqual([5, 'events.1']);
    expect(error.message).toContain('"post.deleted"');
  });

  it('refuses a bad cron expression, naming the part that is wrong', () => {
    const error = errorOf('name: x\ndisplay_name: X\nschedules:\n  - job: digest\n    cron: "61 9 * * *"\n');
    expect([error.line, error.field]).toEqual([5, 'schedules.0.cron']);
    expect(error.message).toContain('61');
  });

  // issue #24: node-cron read "MONDAY", the scheduler's cron-parser did not, and the runtime stopped at start
  it('refuses a day or month written out in full, naming the field and pointing at the three-letter name', () => {
    const error = errorOf('name: x\ndisplay_name: X\nschedules:\n  - job: digest\n    cron: "0 9 * * MONDAY"\n');
    expect(error.message).toBe(
      `${FILE}:5 schedules.0.cron: invalid cron expression "0 9 * * MONDAY": day of week "MONDAY" is not a name cron reads (did you mean "MON"?)`,
    );
    expect(errorOf('name: x\ndisplay_name: X\nschedules: [{ job: d, cron: "0 9 1 JANUARY *" }]\n').message).toContain(
      'month "JANUARY" is not a name cron reads (did you mean "JAN"?)',
    );
    expect(errorOf('name: x\ndisplay_name: X\nschedules: [{ job: d, cron: "0 9 * * Mon,THURS" }]\n').message).toContain('(did you mean "THU"?)');
    expect(parseManifest('name: x\ndisplay_name: X\nschedules: [{ job: d, cron: "0 9 * * mon-fri" }]\n', FILE, {}).schedules[0]?.cron).toBe('0 9 * * mon-fri');
  });

  it('refuses an unknown time zone and a malformed catch_up', () => {
    expect(errorOf('name: x\ndisplay_name: X\nschedules: [{ job: d, cron: "0 9 * * *", timezone: Mars/Olympus }]\n').field).toBe('schedules.0.timezone');
    expect(errorOf('name: x\ndisplay_name: X\nschedules: [{ job: d, cron: "0 9 * * *", catch_up: soon }]\n').field).toBe('schedules.0.catch_up');
  });

  it('points at a misspelt key', () => {
    const error = errorOf('name: x\ndisplay_name: X\nschedules:\n  - job: d\n    cron: "0 9 * * *"\n    timezon: UTC\n');
    expect([error.line, error.field]).toEqual([6, 'schedules.0.timezon']);
  });

  it('points a missing required key at its parent', () => {
    const error = errorOf('name: x\ndisplay_name: X\nschedules:\n  - job: d\n');
    expect([error.line, error.field]).toEqual([4, 'schedules.0.cron']);
  });

  it('refuses a bot name that is not a slug', () => {
    const error = errorOf('display_name: X\nname: Kudos Bot\n');
    expect([error.line, error.field]).toEqual([2, 'name']);
  });

  it('reports YAML syntax errors with their line', () => {
    const error = errorOf('name: x\ndisplay_name: X\nevents: [post.created\n');
    expect(error.field).toBe('(yaml)');
    expect(error.line).toBeGreaterThanOrEqual(3);
  });

  it('checks alert auth, formats and target references', () => {
    const base = 'name: x\ndisplay_name: X\ntargets: { ops: { wall: 3 } }\nalerts:\n';
    expect(errorOf(`${base}  - { input: am, format: alertmanager, auth: { token: t } }\n`).field).toBe('alerts.0.auth');
    expect(errorOf(`${base}  - { input: am, format: alertmanager, auth: { basic: { username: u } } }\n`).field).toBe('alerts.0.auth.basic.password');
    expect(errorOf(`${base}  - { input: am, format: nagios, auth: { bearer: t } }\n`).field).toBe('alerts.0.format');
    const unknownTarget = errorOf(`${base}  - { input: am, format: grafana, auth: { query_token: t }, targets: [ops, pager] }\n`);
    expect([unknownTarget.field, unknownTarget.line]).toEqual(['alerts.0.targets.1', 5]);
    const ok = parseManifest(
      `${base}  - { input: am, format: slack, auth: { basic: { username: u, password: p } }, targets: [ops], route: [{ match: { severity: critical }, targets: [ops] }] }\n`,
      FILE,
      {},
    );
    expect(ok.alerts[0]?.auth).toEqual({ basic: { username: 'u', password: 'p' } });
  });

  it('accepts every kind of target and checks the id an incoming webhook binds to', () => {
    const source = `name: x
display_name: X
targets:
  team: { wall: 3 }
  eng: { wall: Engineering }
  hook: { incoming_webhook: "https://acme.example.com/api/open/v1/incoming/t0k" }
  room: { incoming: { action: chat_message, chat_id: 12 } }
  oncall: { chat: 14 }
  me: { incoming: { action: direct_message, user_id: 7 } }
`;
    const manifest = parseManifest(source, FILE, {});
    expect(manifest.targets.oncall).toEqual({ incoming: { action: 'chat_message', chat_id: 14 } });
    expect(manifest.targets.team).toEqual({ wall: 3 });
    const wrongId = errorOf('name: x\ndisplay_name: X\ntargets:\n  room:\n    incoming: { action: wall_post, chat_id: 1 }\n');
    expect(wrongId.field).toBe('targets.room.incoming.wall_id');
    expect(errorOf('name: x\ndisplay_name: X\ntargets:\n  room: { wall: 3, chat: 4 }\n').field).toBe('targets.room');
  });

  it('refuses overrides for a tenant the bot does not deploy to', () => {
    const error = errorOf('name: x\ndisplay_name: X\ntenants: [eu]\noverrides:\n  us: { reply: dm }\n');
    expect([error.field, error.line]).toEqual(['overrides.us', 5]);
  });
});

describe('per-tenant manifests', () => {
  const source = `name: x
display_name: X
tenants: [eu, us]
targets: { team: { wall: 3 }, ops: { chat: 1 } }
config: { greeting: Hi, limits: { per_day: 3, per_week: 10 } }
overrides:
  us:
    targets: { team: { wall: 9 } }
    config: { limits: { per_day: 5 } }
    reply: dm
`;
  it('deploys only to the listed tenants', () => {
    const manifest = parseManifest(source, FILE, {});
    expect(deploysTo(manifest, 'eu')).toBe(true);
    expect(deploysTo(manifest, 'asia')).toBe(false);
  });

  it('merges targets by name and config deeply, and replaces other fields', () => {
    const us = manifestForTenant(parseManifest(source, FILE, {}), 'us');
    expect(us.targets).toEqual({ team: { wall: 9 }, ops: { incoming: { action: 'chat_message', chat_id: 1 } } });
    expect(us.config).toEqual({ greeting: 'Hi', limits: { per_day: 5, per_week: 10 } });
    expect(us.reply).toBe('dm');
    expect(manifestForTenant(parseManifest(source, FILE, {}), 'eu').reply).toBe('comment');
  });
});

describe('override references', () => {
  it('checks alert targets of an override against the merged targets', () => {
    const base = 'name: x\ndisplay_name: X\ntargets: { ops: { wall: 3 } }\noverrides:\n  us:\n    targets: { pager: { chat: 2 } }\n    alerts:\n';
    const ok = parseManifest(`${base}      - { input: am, format: generic, auth: { bearer: t }, targets: [ops, pager] }\n`, FILE, {});
    expect(manifestForTenant(ok, 'us').alerts[0]?.targets).toEqual(['ops', 'pager']);
    const error = errorOf(`${base}      - { input: am, format: generic, auth: { bearer: t }, targets: [oncall] }\n`);
    expect([error.field, error.line]).toEqual(['overrides.us.alerts.0.targets.0', 8]);
  });

  it('keeps secrets out of the error and its cause', () => {
    const error = errorOf('name: x\ndisplay_name: X\nalerts: [{ input: am, format: generic, auth: { bearer: s3cr3t-token, extra: 1 } }]\n');
    expect(error.field).toBe('alerts.0.auth.extra');
    expect(JSON.stringify(error.cause)).not.toContain('s3cr3t-token');
    expect(error.message).not.toContain('s3cr3t-token');
  });

  it('refuses a declared scope that is not read:x or write:x, naming its line and field', () => {
    const error = errorOf('name: x\ndisplay_name: X\nscopes: [read:users, admin]\n');
    expect([error.field, error.line]).toEqual(['scopes.1', 3]);
    expect(error.message).toContain('expected a scope such as read:users');
  });
});
