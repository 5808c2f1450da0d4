import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing';

// Issue #24, item 1, over real HTTP between a runtime and the sandbox: what /metrics exposes follows the
// Prometheus naming rules, and each metric added for operators moves when its event happens.

/** prom-client's default gauges that end `_total` (a count of handles now, not a counter): its names, not ours. */
const PROM_CLIENT_TOTAL_GAUGES = /^intrabot_(process_)?nodejs_active_(handles|requests|resources)_total$/;

interface Family {
  name: string;
  type: string;
}

function families(text: string): Family[] {
  return [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({ name: m[1]!, type: m[2]! }));
}

/** The value of one sample line (`name{labels}`, exactly as exposed), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('/metrics of a running runtime', () => {
  let pair: Pair;
  let url: string;

  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/bots'), bots: ['echo'] });
    url = pair.runtime.inspect().url!;
  });
  afterAll(async () => pair?.close());

  const scrape = async (): Promise<string> => (await fetch(`${url}/metrics`)).text();
  const waitForSample = (series: string, done: (value: number) => boolean): Promise<string> =>
    pair.platform.waitFor(scrape, (text) => done(sample(text, series)));
  const employeePost = async (body: string): Promise<{ id: number }> => {
    const refs = await pair.refs();
    return pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body });
  };
  const admin = async (path: string): Promise<number> =>
    (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status;

  it('names every metric intrabot_*, counters *_total only, times *_seconds and sizes *_bytes', async () => {
    const post = await employeePost('metrics, please');
    await pair.platform.waitFor(
      () => pair.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    const all = families(await scrape());
    expect(all.length).toBeGreaterThan(20);
    for (const { name, type } of all) {
      expect(name, name).toMatch(/^intrabot_[a-z][a-z0-9_]*$/);
      if (type === 'counter') expect(name, `${name} is a counter`).toMatch(/_total$/);
      else if (!PROM_CLIENT_TOTAL_GAUGES.test(name)) expect(name, `${name} is a ${type}`).not.toMatch(/_total$/);
      expect(name, `${name}: times in seconds`).not.toMatch(/_(ms|millis|milliseconds|minutes|hours)(_|$)/);
      if (/(duration|lag|wait|latency|_time)/.test(name)) expect(name, `${name}: a time`).toMatch(/_seconds(_total)?$/);
      expect(name, `${name}: sizes in bytes`).not.toMatch(/_(kb|mb|kilobytes|megabytes)(_|$)/);
      if (/(memory|heap|size)/.test(name) && !/_total$|_info$/.test(name)) expect(name, `${name}: a size`).toMatch(/_bytes$/);
    }
  });

  it('still exports the names this release replaced, for one release', async () => {
    const names = families(await scrape()).map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        // deprecated
        'intrabot_outbox_depth',
        'intrabot_process_process_cpu_user_seconds_total',
        'intrabot_process_nodejs_eventloop_lag_seconds',
        // their replacements
        'intrabot_outbox_entries',
        'intrabot_process_cpu_user_seconds_total',
        'intrabot_nodejs_eventloop_lag_seconds',
      ]),
    );
  });

  it('counts the requests sent to the platform by method and answer, and the budget waits before them', async () => {
    const text = await scrape();
    expect(sample(text, 'intrabot_platform_requests_total{tenant="sandbox",method="GET",status="2xx"}')).toBeGreaterThan(0);
    expect(sample(text, 'intrabot_rate_budget_wait_seconds_count{tenant="sandbox",budget="token"}')).toBeGreaterThan(0);
  });

  it('counts a refused send as a 4xx answer and shows it in the outbox dead letters', async () => {
    const before = await scrape();
    const refused = 'intrabot_platform_requests_total{tenant="sandbox",method="POST",status="4xx"}';
    expect(sample(before, 'intrabot_outbox_entries{state="dead"}')).toBe(0);
    await pair.platform.fault({ method: 'POST', path: '/api/open/v1/posts/*/comments', status: 422, count: 1 });
    await employeePost('this reply is refused');
    const after = await waitForSample('intrabot_outbox_entries{state="dead"}', (dead) => dead === 1);
    expect(sample(after, refused)).toBe(sample(before, refused) + 1);
    expect(sample(after, 'intrabot_outbox_dead_letters')).toBe(1);
  });

  it("measures the delivery lag on the runtime's clock, from acceptance to the start of handling", async () => {
    const lag = (text: string, le: string): number => sample(text, `intrabot_delivery_lag_seconds_bucket{le="${le}",bot="echo"}`);
    const before = await scrape();
    expect(sample(before, 'intrabot_delivery_lag_seconds_count{bot="echo"}')).toBeGreaterThan(0);
    expect(await admin('/_admin/bots/echo/pause')).toBe(200);
    await employeePost('held while paused');
    // kept in the inbox while its bot is paused
    await waitForSample('intrabot_inbox_entries{state="pending"}', (pending) => pending === 1);
    pair.clock.advance(45_000);
    expect(await admin('/_admin/bots/echo/resume')).toBe(200);
    const count = 'intrabot_delivery_lag_seconds_count{bot="echo"}';
    const after = await waitForSample(count, (n) => n === sample(before, count) + 1);
    expect(lag(after, '30')).toBe(lag(before, '30'));
    expect(lag(after, '60')).toBe(lag(before, '60') + 1);
    expect(sample(after, 'intrabot_inbox_entries{state="pending"}') + sample(after, 'intrabot_inbox_entries{state="leased"}')).toBeLessThanOrEqual(1);
  });
});

describe('/metrics of job runs', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ botsDir: resolve('test/fixtures/pause-bots'), bots: ['pausable'] });
  });
  afterAll(async () => pair?.close());

  it('counts a job run by bot, job and outcome', async () => {
    const series = 'intrabot_job_runs_total{bot="pausable",job="hourly",outcome="ok"}';
    const scrape = async (): Promise<string> => (await fetch(`${pair.runtime.inspect().url}/metrics`)).text();
    const before = sample(await scrape(), series);
    expect((await pair.runJob('pausable', 'hourly')).outcome).toBe('ok');
    expect(sample(await scrape(), series)).toBe(before + 1);
  });
});
