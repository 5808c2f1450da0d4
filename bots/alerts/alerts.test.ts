import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSample, type Pair, startPair } from 'intrabot/testing';

const fixture = (name: string): string => alertSample(name);
/** The bot's name, once: its inputs are /alerts/<bot>/<input> (a copy made with intrabot new --from is renamed here). */
const BOT = 'alerts';

describe('the alerts bot', () => {
  let pair: Pair;
  let opsWall: number;
  const post = (input: string, body: string, token = 'sandbox-alert-token') =>
    fetch(`${pair.runtime.inspect().url}/alerts/${BOT}/${input}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  beforeAll(async () => {
    pair = await startPair({ bots: [BOT] });
    opsWall = (await pair.refs()).department_walls.Operations!;
    await pair.platform.settings({ rate_limit_per_minute: 600 });
  });
  afterAll(async () => pair?.close());

  it('refuses a missing or wrong token with 401 and sends nothing', async () => {
    const before = (await pair.platform.wallPosts(opsWall)).length;
    const chatBefore = (await pair.platform.messages({ kind: 'chat' })).length;
    expect((await post('alertmanager', fixture('alertmanager-firing.json'), 'wrong')).status).toBe(401);
    const none = await fetch(`${pair.runtime.inspect().url}/alerts/${BOT}/alertmanager`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: fixture('alertmanager-firing.json'),
    });
    expect(none.status).toBe(401);
    await pair.settle();
    expect((await pair.platform.wallPosts(opsWall)).length).toBe(before);
    expect((await pair.platform.messages({ kind: 'chat' })).length).toBe(chatBefore);
  });

  it('posts firing Alertmanager alerts on the Operations wall and sends the critical one to the on-call chat', async () => {
    expect((await post('alertmanager', fixture('alertmanager-firing.json'))).status).toBe(202);
    const posts = await pair.platform.waitFor(
      () => pair.platform.wallPosts(opsWall),
      (p) => p.some((x) => x.body?.includes('HighHTTPErrorRate')),
    );
    expect(posts.find((p) => p.body?.includes('HighHTTPErrorRate'))?.body).toContain('CRITICAL');
    const chat = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'chat' }),
      (m) => m.some((x) => String(x.text).includes('HighHTTPErrorRate')),
    );
    expect(chat.length).toBeGreaterThan(0);
  });

  it('does not post an unchanged repeat of the group again', async () => {
    const before = (await pair.platform.wallPosts(opsWall)).length;
    expect((await post('alertmanager', fixture('alertmanager-firing.json'))).status).toBe(202);
    await pair.settle();
    expect((await pair.platform.wallPosts(opsWall)).length).toBe(before);
  });

  it('an employee\'s "ack" comment under the firing post edits the post to show who took it', async () => {
    const firing = (await pair.platform.wallPosts(opsWall)).find((p) => p.body?.includes('HighHTTPErrorRate'))!;
    const employee = (await pair.refs()).employee_ids[2]!;
    await pair.platform.employeeComment(employee, { post_id: firing.id, body: 'ack' });
    const edited = await pair.platform.waitFor(
      () => pair.platform.wallPosts(opsWall),
      (posts) => posts.some((p) => p.id === firing.id && p.body?.includes('✋ Acknowledged by')),
    );
    const body = edited.find((p) => p.id === firing.id)!.body!;
    expect(body.startsWith(firing.body!)).toBe(true);
    const answer = await pair.platform.waitFor(
      () => pair.platform.commentsOn(firing.id),
      (c) => c.some((comment) => comment.body?.includes('acknowledged these 3 alerts')),
    );
    expect(answer.map((c) => c.body)).toEqual(['ack', expect.stringMatching(/^✋ .+ acknowledged these 3 alerts\.$/)]);
  });

  it('answers the firing post with a comment when the alerts resolve', async () => {
    const firing = (await pair.platform.wallPosts(opsWall)).find((p) => p.body?.includes('HighHTTPErrorRate'))!;
    expect((await post('alertmanager', fixture('alertmanager-resolved.json'))).status).toBe(202);
    const comments = await pair.platform.waitFor(
      () => pair.platform.commentsOn(firing.id),
      (c) => c.some((comment) => /resolved/i.test(comment.body ?? '')),
    );
    expect(comments.some((comment) => /resolved/i.test(comment.body ?? ''))).toBe(true);
    // one post per incident, kept current: firing, acknowledged (the test before), resolved
    const edited = await pair.platform.waitFor(
      () => pair.platform.wallPosts(opsWall),
      (posts) => posts.some((p) => p.id === firing.id && p.body?.endsWith('✅ Resolved: all 3 alerts')),
    );
    expect(edited.find((p) => p.id === firing.id)!.body).toMatch(/\n\n✋ Acknowledged by .+\n✅ Resolved: all 3 alerts$/);
  });

  it('forwards a Slack-compatible payload and answers ok as Slack does', async () => {
    const res = await post('slack', fixture('slack-compatible-text.json'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });
});
