import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing';
import { runZabbixMediaType } from '../helpers/zabbix-media-type';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const BEARER = { authorization: 'Bearer sources-token' };

/** What intrabot's Zabbix media type sends for the event of a params fixture (its script run as Zabbix runs it). */
function zabbixBody(file: string): string {
  const run = runZabbixMediaType({ ...(JSON.parse(fixture(file)) as Record<string, string>), intrabot_url: 'http://intrabot/alerts/sources/zabbix-media' });
  return run.requests[0]!.body;
}

interface Source {
  input: string;
  query: string;
  /** The sender's credential, or its signature of the body. */
  headers: Record<string, string> | ((body: string) => Record<string, string>);
  firing: string;
  resolved: string;
  /** The body sent for a fixture (default: the fixture's text). */
  bodyOf?: (file: string) => string;
  shows: string;
}

/** Each source: its input, the credential it is sent with, its firing and resolved fixtures, and a word of the firing post. */
const SOURCES: Source[] = [
  {
    input: 'azure',
    query: '?token=azure-token',
    headers: {},
    firing: 'azure-monitor-fired.json',
    resolved: 'azure-monitor-resolved.json',
    shows: 'intranet-db CPU over 85%',
  },
  {
    input: 'gcp',
    query: '',
    headers: { authorization: `Basic ${Buffer.from('gcp:gcp-pass').toString('base64')}` },
    firing: 'gcp-monitoring-open.json',
    resolved: 'gcp-monitoring-closed.json',
    shows: 'intranet-web p99 latency',
  },
  {
    input: 'zabbix',
    query: '',
    headers: BEARER,
    firing: 'formatted-webhook-alerting.json',
    resolved: 'formatted-webhook-ok.json',
    shows: 'Free disk space is less than 10%',
  },
  { input: 'healthchecks', query: '', headers: BEARER, firing: 'healthchecks-down.json', resolved: 'healthchecks-up.json', shows: 'Nightly "intranet" backup' },
  {
    input: 'newrelic',
    query: '',
    headers: BEARER,
    firing: 'newrelic-activated.json',
    resolved: 'newrelic-closed.json',
    shows: "Error rate > 5% for at least 5 minutes on 'intranet-api'",
  },
  {
    input: 'kibana',
    query: '',
    headers: BEARER,
    firing: 'kibana-active.json',
    resolved: 'kibana-recovered.json',
    shows: "rule 'Login failures spike' matched query",
  },
  {
    input: 'zabbix-media',
    query: '',
    headers: BEARER,
    firing: 'zabbix-problem-params.json',
    resolved: 'zabbix-recovery-params.json',
    bodyOf: zabbixBody,
    shows: 'High memory utilization on mail-01',
  },
  {
    input: 'github',
    query: '',
    headers: (text) => ({ 'x-github-event': 'workflow_run', 'x-hub-signature-256': `sha256=${createHmac('sha256', 'gh-secret').update(text).digest('hex')}` }),
    firing: 'github-workflow-run-failure.json',
    resolved: 'github-workflow-run-success.json',
    shows: 'acme/intranet: CI on main',
  },
  {
    input: 'gitlab',
    query: '',
    headers: { 'x-gitlab-event': 'Pipeline Hook', 'x-gitlab-token': 'gl-token' },
    firing: 'gitlab-pipeline-failed.json',
    resolved: 'gitlab-pipeline-success.json',
    shows: 'acme/intranet: pipeline on main',
  },
  {
    input: 'jenkins',
    query: '?token=jenkins-token',
    headers: {},
    firing: 'jenkins-finalized-failure.json',
    resolved: 'jenkins-finalized-success.json',
    shows: 'intranet-deploy',
  },
];

describe('alert sources over real HTTP (issue #27)', () => {
  let pair: Pair;
  let wall: number;
  const send = (source: Source, file: string, headers?: Record<string, string>) => {
    const text = (source.bodyOf ?? fixture)(file);
    const sent = headers ?? (typeof source.headers === 'function' ? source.headers(text) : source.headers);
    return fetch(`${pair.runtime.inspect().url}/alerts/sources/${source.input}${source.query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sent },
      body: text,
    });
  };

  beforeAll(async () => {
    pair = await startPair({ botsDir: 'test/fixtures/bots-alert-sources' });
    wall = (await pair.refs()).department_walls.Operations!;
    await pair.platform.settings({ rate_limit_per_minute: 600 });
  }, 60_000);
  afterAll(async () => pair?.close());

  it.each(SOURCES)('$input: refuses a wrong credential with 401 and queues nothing', async (source) => {
    const wrong = source.query ? { ...source, query: '?token=wrong' } : source;
    const res = await send(wrong, source.firing, source.query ? {} : { authorization: 'Bearer wrong' });
    expect(res.status).toBe(401);
    await pair.settle();
    expect((await pair.platform.wallPosts(wall)).filter((p) => p.body?.includes(source.shows))).toEqual([]);
  });

  it.each(SOURCES)('$input: posts the firing alert on the wall, then answers that post with a comment when it resolves', async (source) => {
    expect((await send(source, source.firing)).status).toBe(202);
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(wall),
      (p) => p.some((x) => x.body?.includes(source.shows)),
    );
    const firing = posts.find((p) => p.body?.includes(source.shows))!;
    expect((await send(source, source.resolved)).status).toBe(202);
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(firing.id),
      (c) => c.length > 0,
    );
    expect(comments[0]?.body).toMatch(/resolved/i);
  });
});
