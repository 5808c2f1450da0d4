// Issue #29, item 5: the playground sends a sample alert of each source a bot's inputs accept. The runtime
// beside the sandbox offers its inputs' samples when it starts; the sandbox sends one as the tool would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPair, type Pair } from '../../src/testing';

interface SenderView {
  id: string;
  bot: string;
  input: string;
  source: string;
  state: 'firing' | 'resolved';
}

describe("the playground's sample alerts", () => {
  let pair: Pair;
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${pair.sandbox.baseUrl}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const senders = async (): Promise<SenderView[]> => ((await (await control('GET', '/_sandbox/playground')).json()) as { senders: SenderView[] }).senders;

  beforeAll(async () => {
    // a bot with an input of every source over every kind of credential, and inputs that only check a signature
    pair = await startPair({ botsDir: 'test/fixtures/bots-alert-sources' });
  }, 30_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('offers one sample per documented state for each input, signed where the input checks a signature, and none where a sample cannot carry what it checks', async () => {
    const offered = await pair.platform.waitFor(senders, (list) => list.length > 0);
    const inputs = [...new Set(offered.map((s) => `${s.input}:${s.source}`))].sort();
    expect(inputs).toEqual(
      [
        'azure:azure-monitor',
        'gcp:gcp-monitoring',
        'github:github',
        'gitlab:gitlab',
        'healthchecks:healthchecks',
        'jenkins:jenkins',
        'kibana:kibana',
        'newrelic:newrelic',
        'zabbix:formatted-webhook',
      ].sort(),
    );
    // SNS's messages are signed by AWS with its certificates; Zabbix's media type's script builds its body
    for (const input of ['sns', 'zabbix-media'])
      expect(
        offered.some((s) => s.input === input),
        input,
      ).toBe(false);
    expect(offered.filter((s) => s.input === 'azure').map((s) => s.state)).toEqual(['firing', 'resolved']);
  });

  it("sends every sample it offers to its input, which takes it: a query token, basic auth, a bearer token, GitHub's signature and GitLab's token each travel as the input asks", async () => {
    const offered = await pair.platform.waitFor(senders, (list) => list.length > 0);
    for (const sender of offered) {
      const res = await control('POST', '/_sandbox/playground/send-alert', { id: sender.id });
      const sent = (await res.json()) as { ok: boolean; status: number; answer: string };
      expect(sent, sender.id).toMatchObject({ ok: true });
      expect(sent.status, `${sender.id}: ${sent.answer}`).toBeGreaterThanOrEqual(200);
    }
    // they become posts on the inputs' target wall, paced as every post to one wall is: the first is enough here
    const operations = (await pair.refs()).department_walls.Operations!;
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(operations),
      (list) => list.length > 0,
    );
    expect(posts[0]!.body).toBeTruthy();
  });

  it('shows the page names only: no address, credential or header of any input', async () => {
    const text = await (await control('GET', '/_sandbox/playground')).text();
    for (const secret of ['azure-token', 'gcp-pass', 'sources-token', 'jenkins-token', 'gh-secret', 'gl-token', 'sha256=', 'Basic ', 'Bearer', '/alerts/'])
      expect(text, secret).not.toContain(secret);
  });

  it('refuses a sender whose address is not on this machine, naming the field, and keeps the menu it had', async () => {
    const before = await senders();
    const res = await control('PUT', '/_sandbox/playground/senders', {
      senders: [
        { id: 'x', tenant: 't', bot: 'b', input: 'i', source: 'grafana', state: 'firing', url: 'http://example.com/alerts/b/i', headers: {}, body: '{}' },
      ],
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('senders.0.url');
    expect(await senders()).toEqual(before);
  });

  it('answers a sample it does not have with 422 naming the id', async () => {
    const res = await control('POST', '/_sandbox/playground/send-alert', { id: 'sandbox/nobody/nothing/firing' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('id');
  });
});
