import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Pair, startPair } from 'intrabot/testing';

interface WallPost {
  body: string;
  author: { id: number };
}

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const SECRET = 'sandbox-alert-token';
/** This bot's name: its inputs are at /alerts/<bot>/<input>. */
const BOT = 'releases';
const hubSignature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

// End to end: GitHub's deliveries over real HTTP to the runtime's alert inputs (the signature checked
// over the raw body, for the release input too), posted on the sandbox's Engineering wall.
describe('releases bot over HTTP', () => {
  let pair: Pair;
  let wall: number;

  const send = (input: string, body: string, headers: Record<string, string>, query = '') =>
    fetch(`${pair.runtime.inspect().url}/alerts/${BOT}/${input}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const postsStarting = (prefix: string) =>
    pair.platform.waitFor(
      async () => ((await pair.platform.wallPosts(wall)) as unknown as WallPost[]).filter((p) => p.body.startsWith(prefix)),
      (posts) => posts.length > 0,
    );

  beforeAll(async () => {
    pair = await startPair({ bots: [BOT] });
    wall = (await pair.refs()).department_walls.Engineering!;
  });
  afterAll(async () => pair?.close());

  it('posts a signed failed workflow run, and refuses one whose signature does not verify', async () => {
    const body = fixture('github-workflow-run-failure.json');
    expect((await send('github', body, { 'x-hub-signature-256': hubSignature('not-the-secret', body) })).status).toBe(401);
    expect((await send('github', body, { 'x-hub-signature-256': hubSignature(SECRET, body) })).status).toBe(202);
    const [post] = await postsStarting('❌ acme/intranet: CI on main');
    expect(post!.body).toContain('Run: https://github.com/acme/intranet/actions/runs/12120000042');
    expect(post!.author.id).toBe(pair.botUserId(BOT));
  });

  it("posts a published release once, its notes as plain text, and only with GitHub's signature", async () => {
    const body = fixture('github-release-published.json');
    expect((await send('github-release', body, {})).status).toBe(401);
    expect((await send('github-release', body, { 'x-hub-signature-256': hubSignature('not-the-secret', body) })).status).toBe(401);
    expect((await send('github-release', body, { 'x-hub-signature-256': hubSignature(SECRET, body) })).status).toBe(202);
    expect((await send('github-release', body, { 'x-hub-signature-256': hubSignature(SECRET, body) })).status).toBe(202);
    const [post] = await postsStarting('📦 acme/intranet v2.4.0');
    expect(post!.body).toContain('■ Features\n• Search across walls');
    expect(post!.body).not.toContain('**');
    await pair.settle();
    expect(await postsStarting('📦 acme/intranet v2.4.0')).toHaveLength(1);
  });
});
