import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { createApiCommand } from '../../../src/cli/commands/api';
import { AdjustableClock } from '../../../src/clock';
import { API, START, TOKEN } from './platform-double';

function harness(env: Record<string, string | undefined>, origin: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(origin);
  const out: string[] = [];
  const err: string[] = [];
  const command = createApiCommand({
    env,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    clock: new AdjustableClock({ start: START, frozen: true }),
    dispatcher: agent,
  });
  return { pool, command, out: () => out.join(''), err: () => err.join('') };
}

describe('intrabot api', () => {
  it('calls the local sandbox with its seeded token when nothing is configured, and prints JSON', async () => {
    const { pool, command, out } = harness({}, 'http://127.0.0.1:4010');
    let auth: unknown;
    pool.intercept({ method: 'GET', path: `${API}/token` }).reply((opts) => {
      auth = (opts.headers as Record<string, string>).authorization;
      return { statusCode: 200, data: JSON.stringify({ data: { name: 'sandbox' } }) };
    });
    expect(await command.run(['GET', '/token'])).toBe(0);
    expect(auth).toBe('Bearer svc_sandbox_token');
    expect(JSON.parse(out())).toEqual({ data: { name: 'sandbox' } });
  });

  it('uses INTRABOT_BASE_URL and INTRABOT_TOKEN, and sends --data as the JSON body', async () => {
    const { pool, command, out } = harness({ INTRABOT_BASE_URL: 'https://acme.example', INTRABOT_TOKEN: TOKEN }, 'https://acme.example');
    let sent: unknown;
    pool.intercept({ method: 'POST', path: `${API}/walls/3/posts` }).reply((opts) => {
      sent = JSON.parse(String(opts.body));
      return { statusCode: 201, data: JSON.stringify({ data: { id: 9 } }) };
    });
    expect(await command.run(['post', '/walls/3/posts', '--data', '{"body":"hello"}'])).toBe(0);
    expect(sent).toEqual({ body: 'hello' });
    expect(JSON.parse(out())).toEqual({ data: { id: 9 } });
  });

  it('reads --data @file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'intrabot-api-'));
    const file = join(dir, 'body.json');
    await writeFile(file, '{"body":"from file"}');
    const { pool, command } = harness({ INTRABOT_BASE_URL: 'https://acme.example', INTRABOT_TOKEN: TOKEN }, 'https://acme.example');
    let sent: unknown;
    pool.intercept({ method: 'PUT', path: `${API}/walls/3/posts/1` }).reply((opts) => {
      sent = JSON.parse(String(opts.body));
      return { statusCode: 200, data: '{"data":{}}' };
    });
    expect(await command.run(['PUT', '/walls/3/posts/1', '--data', `@${file}`])).toBe(0);
    expect(sent).toEqual({ body: 'from file' });
    await rm(dir, { recursive: true, force: true });
  });

  it('prints every item of every page as one array with --paginate', async () => {
    const { pool, command, out } = harness({ INTRABOT_BASE_URL: 'https://acme.example', INTRABOT_TOKEN: TOKEN }, 'https://acme.example');
    pool
      .intercept({ method: 'GET', path: `${API}/users?per_page=50` })
      .reply(200, { data: [{ id: 1 }], links: { next: `https://acme.example${API}/users?per_page=50&page=2` } });
    pool.intercept({ method: 'GET', path: `${API}/users?per_page=50&page=2` }).reply(200, { data: [{ id: 2 }], links: { next: null } });
    expect(await command.run(['GET', '/users', '--paginate'])).toBe(0);
    expect(JSON.parse(out())).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('exits 1 on an error and prints it without the token', async () => {
    const { pool, command, err } = harness({}, 'https://acme.example');
    pool.intercept({ method: 'GET', path: `${API}/walls` }).reply(403, { error: 'forbidden', message: `token ${TOKEN} lacks read:walls` });
    expect(await command.run(['GET', '/walls', '--base-url', 'https://acme.example', '--token', TOKEN])).toBe(1);
    expect(err()).toContain('api_forbidden');
    expect(err()).toContain('read:walls');
    expect(err()).not.toContain(TOKEN);
  });

  it('refuses a token without svc_ with a clear message and exit 1', async () => {
    const { command, err } = harness({}, 'https://acme.example');
    expect(await command.run(['GET', '/walls', '--base-url', 'https://acme.example', '--token', 'abc123secret'])).toBe(1);
    expect(err()).toContain('invalid_token');
    expect(err()).not.toContain('abc123secret');
  });

  it('answers a usage error with exit 2', async () => {
    const { command, err } = harness({}, 'https://acme.example');
    expect(await command.run(['FETCH', '/walls'])).toBe(2);
    expect(await command.run(['GET'])).toBe(2);
    expect(err()).toContain('Usage: intrabot api');
  });
});
