import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/webhooks/json-depth';
import { harness, type Harness } from './input-route-harness';

/**
 * An alert body nested thousands of levels deep parses, then overflows the stack of whatever reads it
 * recursively after (validation, templates, the store's serialising): the same limit as the webhook
 * receiver's (src/webhooks/json-depth.ts) refuses it at the door with a 400 naming the reason, over real
 * HTTP, before anything is parsed, queued or remembered.
 */
const firing = JSON.parse(readFileSync('test/fixtures/alerts/alertmanager-firing.json', 'utf8')) as Record<string, unknown>;

/** `levels` arrays, one inside the other. */
function nested(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

async function send(
  h: Harness,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; json: { error?: string; message?: string; details?: unknown } }> {
  const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
  const res = await fetch(`${address}${path}`, { method: 'POST', headers, body });
  return { status: res.status, json: (await res.json()) as { error?: string; message?: string } };
}

const BEARER = { authorization: 'Bearer am-token', 'content-type': 'application/json' };

describe('POST /alerts/:bot/:input, deeply nested bodies', () => {
  it('refuses a body nested 100,000 levels deep with 400 naming the depth limit, queueing nothing', async () => {
    const h = await harness();
    const body = JSON.stringify({ ...firing, extra: '@' }).replace('"@"', nested(100_000));
    const res = await send(h, '/alerts/alerts/alertmanager', body, BEARER);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_input', details: { field: 'body' } });
    expect(res.json.message).toBe(`body: nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
    expect(h.sent).toEqual([]);
    expect(await h.store.kv('alerts:sandbox:alerts').list()).toEqual([]);
  });

  it('refuses a form-encoded Slack payload nested too deep, naming body.payload', async () => {
    const h = await harness();
    const payload = `{"text":"deploy","attachments":${nested(MAX_JSON_DEPTH + 1)}}`;
    const res = await send(h, '/alerts/alerts/slack?token=slack-token', new URLSearchParams({ payload }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_input', details: { field: 'body.payload' } });
    expect(res.json.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    expect(h.sent).toEqual([]);
  });

  it('takes a body nested right at the limit', async () => {
    const h = await harness();
    // the notification is one level: with `nested(n)` in one of its fields, n + 1 in all
    const body = JSON.stringify({ ...firing, extra: '@' }).replace('"@"', nested(MAX_JSON_DEPTH - 1));
    expect((await send(h, '/alerts/alerts/alertmanager', body, BEARER)).status).toBe(202);
  });
});
