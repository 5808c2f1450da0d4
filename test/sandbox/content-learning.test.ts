import { describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import { failure, useHttpSandbox } from './http-harness';

describe('articles and learning content (spec: Other endpoints that exist)', () => {
  const h = useHttpSandbox({ seed: 'empty' });

  it('creates and reads an article; body is required (spec: not shown; src/api/schemas/article.ts)', async () => {
    const created = await h.api.articles.create({ title: 'Guide', body: '<h1>Hi</h1>' });
    expect(await h.api.articles.get(created.id)).toMatchObject({ id: created.id, title: 'Guide', body: '<h1>Hi</h1>', is_rich_content: true });
    // the client refuses an article without body before sending, so raw HTTP
    const noBody = await h.raw('POST', '/articles', { body: { title: 'No body' } });
    expect(noBody.status).toBe(422);
    expect(noBody.json<{ message: string }>().message).toContain('body');
    await expect(h.api.articles.get(999)).rejects.toBeInstanceOf(ApiNotFoundError);
    // the status itself, which the client does not surface
    expect((await h.raw('POST', '/articles', { body: { title: 'Guide', body: '<p>x</p>' } })).status).toBe(201);
  });

  it('creates handbooks and courses, published unless is_published is false (spec: not shown)', async () => {
    expect(await h.api.handbooks.create({ title: 'Handbook' })).toMatchObject({ title: 'Handbook', is_published: true });
    expect((await h.api.courses.create({ title: 'Course', is_published: false })).is_published).toBe(false);
    expect((await h.api.courses.list()).data).toHaveLength(1);
    // the client refuses a handbook without title before sending, so raw HTTP
    expect((await h.raw('POST', '/handbooks', { body: {} })).status).toBe(422);
  });

  it('creates certificate types and certificates for existing users and types (spec: not shown)', async () => {
    const type = await h.api.certificateTypes.create({ name: 'Forklift' });
    expect(await h.api.certificates.create({ user_id: 1, certificate_type_id: type.id, issued_at: '2026-01-01' })).toMatchObject({
      user_id: 1,
      certificate_type_id: type.id,
      issued_at: '2026-01-01',
    });
    const error = await failure(h.api.certificates.create({ user_id: 1, certificate_type_id: 99 }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'certificate_type_id' });
  });

  it('demands the matching scope (spec: Endpoints, 403 naming the scope)', async () => {
    const reader = await h.clientWith(['read:handbooks']);
    await expect(reader.handbooks.list()).resolves.toMatchObject({ data: [] });
    const error = await failure(reader.handbooks.create({ title: 'x' }));
    expect(error).toBeInstanceOf(ApiForbiddenError);
    expect(error).toMatchObject({ missingScope: 'write:handbooks' });
  });

  it('seeds handbooks, courses and journeys with one offboarding journey (issue: demo seed)', async () => {
    await h.reset('demo');
    const journeys = (await h.api.journeys.list()).data;
    expect(journeys.map((j) => j.type).sort()).toEqual(['custom', 'offboarding', 'onboarding']);
    expect((await h.api.handbooks.list()).data.some((x) => x.is_published)).toBe(true);
    expect((await h.api.courses.list()).data.length).toBeGreaterThan(0);
  });
});
