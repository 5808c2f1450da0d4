import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

const auth = { authorization: 'Bearer svc_sandbox_token' };

function build(seed: 'empty' | 'demo' = 'empty') {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed });
  const api = (method: 'GET' | 'POST', url: string, payload?: object, headers = auth) =>
    sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers, ...(payload ? { payload } : {}) });
  return { ...sandbox, ctx, api };
}

describe('articles and learning content (spec: Other endpoints that exist)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  it('creates and reads an article; body is required (spec: not shown; src/api/schemas/article.ts)', async () => {
    s = build();
    const created = await s.api('POST', '/articles', { title: 'Guide', body: '<h1>Hi</h1>' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect((await s.api('GET', `/articles/${id}`)).json().data).toMatchObject({ id, title: 'Guide', body: '<h1>Hi</h1>', is_rich_content: true });
    expect((await s.api('POST', '/articles', { title: 'No body' })).statusCode).toBe(422);
    expect((await s.api('GET', '/articles/999')).statusCode).toBe(404);
  });

  it('creates handbooks and courses, published unless is_published is false (spec: not shown)', async () => {
    s = build();
    const h = await s.api('POST', '/handbooks', { title: 'Handbook' });
    expect(h.statusCode).toBe(201);
    expect(h.json().data).toMatchObject({ title: 'Handbook', is_published: true });
    const c = await s.api('POST', '/courses', { title: 'Course', is_published: false });
    expect(c.json().data.is_published).toBe(false);
    expect((await s.api('GET', '/courses')).json().data).toHaveLength(1);
    expect((await s.api('POST', '/handbooks', {})).statusCode).toBe(422);
  });

  it('creates certificate types and certificates for existing users and types (spec: not shown)', async () => {
    s = build();
    const type = (await s.api('POST', '/certificate-types', { name: 'Forklift' })).json().data;
    const cert = await s.api('POST', '/certificates', { user_id: 1, certificate_type_id: type.id, issued_at: '2026-01-01' });
    expect(cert.statusCode).toBe(201);
    expect(cert.json().data).toMatchObject({ user_id: 1, certificate_type_id: type.id, issued_at: '2026-01-01' });
    const bad = await s.api('POST', '/certificates', { user_id: 1, certificate_type_id: 99 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toContain('certificate_type_id');
  });

  it('demands the matching scope (spec: Endpoints, 403 naming the scope)', async () => {
    s = build();
    const token = (await s.app.inject({ method: 'POST', url: '/_sandbox/tokens', payload: { name: 'reader', scopes: ['read:handbooks'] } })).json().token as string;
    const headers = { authorization: `Bearer ${token}` };
    expect((await s.api('GET', '/handbooks', undefined, headers)).statusCode).toBe(200);
    const denied = await s.api('POST', '/handbooks', { title: 'x' }, headers);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toContain('write:handbooks');
  });

  it('seeds handbooks, courses and journeys with one offboarding journey (issue: demo seed)', async () => {
    s = build('demo');
    const journeys = (await s.api('GET', '/journeys')).json().data as { type: string; is_published: boolean }[];
    expect(journeys.map((j) => j.type).sort()).toEqual(['custom', 'offboarding', 'onboarding']);
    const handbooks = (await s.api('GET', '/handbooks')).json().data as { is_published: boolean }[];
    expect(handbooks.some((h) => h.is_published)).toBe(true);
    expect((await s.api('GET', '/courses')).json().data.length).toBeGreaterThan(0);
  });
});
