import { beforeEach, describe, expect, it } from 'vitest';
import { ApiForbiddenError, ApiNotFoundError, ApiValidationError } from '../../src/api/errors';
import type { AchievementCreate } from '../../src/api/schemas/achievement';
import { failure, useHttpSandbox } from './http-harness';

const custom = { type: 'custom', title: 'Helper' } as const;

describe('achievements (spec: Achievements; Achievement publication state)', () => {
  const h = useHttpSandbox({ seed: 'empty' });

  beforeEach(() => {
    // the platform's active languages are set in its admin interface: no API or control route, so in process
    h.sandbox.ctx.db.setMeta('locales', { locales: { en: 'English', de: 'Deutsch', fr: 'Français' }, default: 'en' });
  });

  const create = (body: AchievementCreate) => h.api.achievements.create(body);
  /** A body the client refuses to send (its schema checks it first), over raw HTTP. */
  const rawCreate = (body: Record<string, unknown>) => h.raw('POST', '/achievements', { body });
  const message = (res: { json<T>(): T }) => res.json<{ message: string }>().message;

  it('answers 403 on every achievement endpoint when the feature is disabled (spec: Achievements; Errors)', async () => {
    const a = await create(custom);
    await h.control.settings({ achievements_enabled: false });
    const api = h.api;
    const calls: [string, () => Promise<unknown>][] = [
      ['GET /achievements', () => api.achievements.list()],
      ['GET /achievements/{id}', () => api.achievements.get(a.id)],
      ['POST /achievements', () => api.achievements.create(custom)],
      ['PATCH /achievements/{id}', () => api.achievements.patch(a.id, { title: 'x' })],
      ['PUT /achievements/{id}', () => api.achievements.update(a.id, { title: 'x' })],
      ['GET /achievements/{id}/awards', () => api.achievements.awards(a.id)],
      ['POST /achievements/{id}/awards', () => api.achievements.award(a.id, [{ user_id: 1, awarded_at: '2026-11-22' }])],
      ['GET /users/{id}/achievements', () => api.achievements.userAchievements(1)],
    ];
    for (const [name, call] of calls) {
      const error = await failure(call());
      expect({ name, forbidden: error instanceof ApiForbiddenError }).toEqual({ name, forbidden: true });
    }
    expect((await h.raw('GET', `/achievements/${a.id}`)).json()).toMatchObject({ error: 'forbidden' });
  });

  it.each([
    ['employee_of_the_month', '👑', 'public'],
    ['completion', '🏆', 'personal'],
    ['employment', '⭐', 'public'],
    ['custom', '🤩', 'personal'],
  ] as const)('defaults the emoji and visibility of %s to %s and %s (spec: Achievement)', async (type, emoji, visibility) => {
    const a = await create({ type, title: 'T' });
    expect(a).toMatchObject({ emoji, visibility, is_published: false, published_at: null, awarded_users_count: 0 });
  });

  it('answers with trigger_type tenure for employment, completion for completion, null otherwise (spec: Achievement)', async () => {
    expect((await create({ type: 'employment', title: 'T', trigger_config: { months: 6 } })).trigger_type).toBe('tenure');
    expect((await create({ type: 'completion', title: 'T' })).trigger_type).toBe('completion');
    expect(await create(custom)).toMatchObject({ trigger_type: null, trigger_config: null });
  });

  it('requires a title except for employee_of_the_month (spec: Achievements, create body)', async () => {
    const res = await rawCreate({ type: 'custom' });
    expect(res.status).toBe(422);
    expect(message(res)).toContain('title');
  });

  it('names an untitled employee of the month "Employee of the month" in every active language (spec: Achievements, create body)', async () => {
    const a = await create({ type: 'employee_of_the_month' });
    expect(a.title).toBe('Employee of the month');
    expect(a.translations?.title).toEqual({ en: 'Employee of the month', de: 'Employee of the month', fr: 'Employee of the month' });
  });

  it('answers 422 naming a locale that is not an active language and creates nothing (spec: Errors)', async () => {
    const error = await failure(create({ ...custom, translations: { title: { es: 'Ayudante' } } }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ field: 'translations.title.es' });
    expect((await h.api.achievements.list()).meta!.total).toBe(0);
  });

  it('validates translations against en and de when the company has no locales set (spec: Achievements, create body)', async () => {
    h.sandbox.ctx.db.setMeta('locales', null);
    await expect(create({ ...custom, translations: { title: { de: 'Helfer' } } })).resolves.toMatchObject({ translations: { title: { de: 'Helfer' } } });
    await expect(create({ ...custom, translations: { title: { fr: 'Aide' } } })).rejects.toBeInstanceOf(ApiValidationError);
  });

  it('answers 422 for trigger_config on a type other than completion or employment (spec: Errors)', async () => {
    const res = await rawCreate({ ...custom, trigger_config: { months: 3 } });
    expect(res.status).toBe(422);
    expect(message(res)).toContain('trigger_config');
  });

  it('answers 422 for an incomplete trigger_config and for months below 1 (spec: Trigger configuration; Limits)', async () => {
    expect((await rawCreate({ type: 'completion', title: 'T', trigger_config: { completable_type: 'handbook' } })).status).toBe(422);
    const zero = await rawCreate({ type: 'employment', title: 'T', trigger_config: { months: 0 } });
    expect(zero.status).toBe(422);
    expect(message(zero)).toContain('months');
  });

  it('answers 422 for publishing an automatic achievement without a complete config, creating nothing (spec: Achievement publication state)', async () => {
    const error = await failure(create({ type: 'employment', title: 'T', is_published: true }));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error).toMatchObject({ platformMessage: expect.stringContaining('trigger_config') });
    expect((await h.api.achievements.list()).meta!.total).toBe(0);
  });

  it('links only published handbooks or courses and published onboarding or custom journeys (spec: Trigger configuration)', async () => {
    const draftHandbook = (await h.api.handbooks.create({ title: 'H', is_published: false })).id;
    const course = (await h.api.courses.create({ title: 'C' })).id;
    // journeys are read-only through the API, so these two are written in process
    const db = h.sandbox.ctx.db;
    const offboarding = db.insert('journeys', { title: 'Off', description: null, type: 'offboarding', is_published: true, created_at: 0, updated_at: 0 }).id;
    const onboarding = db.insert('journeys', { title: 'On', description: null, type: 'onboarding', is_published: true, created_at: 0, updated_at: 0 }).id;
    const link = (completable_type: 'handbook' | 'course' | 'journey', ids: number[]) =>
      create({ type: 'completion', title: 'T', trigger_config: { completable_type, completable_ids: ids } });
    const refused = await failure(link('handbook', [draftHandbook]));
    expect(refused).toBeInstanceOf(ApiValidationError);
    expect(refused).toMatchObject({ field: 'trigger_config.completable_ids.0' });
    expect(await failure(link('journey', [onboarding, offboarding]))).toMatchObject({ field: 'trigger_config.completable_ids.1' });
    await expect(link('handbook', [999])).rejects.toBeInstanceOf(ApiValidationError);
    await expect(link('course', [course])).resolves.toMatchObject({ trigger_config: { completable_type: 'course' } });
    await expect(link('journey', [onboarding])).resolves.toMatchObject({ trigger_config: { completable_type: 'journey' } });
  });

  it('refuses an emoji longer than 16 characters (spec: Limits)', async () => {
    expect((await rawCreate({ ...custom, emoji: 'x'.repeat(17) })).status).toBe(422);
    await expect(create({ ...custom, emoji: '🎉'.repeat(16) })).resolves.toMatchObject({ emoji: '🎉'.repeat(16) });
  });

  it('lists newest first with drafts, filtered by is_published, type, visibility and since (spec: Achievements, list query)', async () => {
    const first = await create({ ...custom, is_published: true });
    await h.control.advance(60);
    const second = await create({ type: 'employee_of_the_month' });
    const ids = async (query: Parameters<typeof h.api.achievements.list>[0] = {}) => (await h.api.achievements.list(query)).data.map((a) => a.id);
    expect(await ids()).toEqual([second.id, first.id]);
    expect(await ids({ is_published: true })).toEqual([first.id]);
    expect(await ids({ is_published: false })).toEqual([second.id]);
    expect(await ids({ type: 'employee_of_the_month' })).toEqual([second.id]);
    expect(await ids({ visibility: 'personal' })).toEqual([first.id]);
    expect(await ids({ since: '2026-11-22T09:00:30+01:00' })).toEqual([second.id]);
    // the client's types allow only the spec's types, so the unknown one goes over raw HTTP
    expect((await h.raw('GET', '/achievements?type=badge')).status).toBe(422);
  });

  it('changes only the sent fields and merges translations (spec: Achievements, update)', async () => {
    const a = await create({ ...custom, description: 'Helps', translations: { title: { de: 'Helfer', fr: 'Aide' } } });
    const patched = await h.api.achievements.patch(a.id, { emoji: '🙌', translations: { title: { de: 'Helferin' } } });
    expect(patched).toMatchObject({
      title: 'Helper',
      description: 'Helps',
      emoji: '🙌',
      translations: { title: { en: 'Helper', de: 'Helferin', fr: 'Aide' } },
    });
    const titled = await h.api.achievements.update(a.id, { title: 'Great helper' });
    expect(titled).toMatchObject({ title: 'Great helper', emoji: '🙌', translations: { title: { en: 'Great helper', de: 'Helferin' } } });
  });

  it('refuses emptying the default-language title, through title or translations (spec: Errors)', async () => {
    const a = await create(custom);
    // an empty title is refused by the client before sending, so raw HTTP
    expect((await h.raw('PATCH', `/achievements/${a.id}`, { body: { title: '' } })).status).toBe(422);
    const viaTranslations = await failure(h.api.achievements.patch(a.id, { translations: { title: { en: '' } } }));
    expect(viaTranslations).toBeInstanceOf(ApiValidationError);
    expect(viaTranslations).toMatchObject({ field: 'translations.title.en' });
    expect((await h.api.achievements.get(a.id)).title).toBe('Helper');
  });

  it('answers 422 for a different type and accepts the current one (spec: Achievement publication state)', async () => {
    const a = await create(custom);
    const changed = await failure(h.api.achievements.patch(a.id, { type: 'employment' }));
    expect(changed).toBeInstanceOf(ApiValidationError);
    expect(changed).toMatchObject({ field: 'type' });
    expect(await h.api.achievements.update(a.id, { type: 'custom', title: 'Same' })).toMatchObject({ type: 'custom', title: 'Same' });
  });

  it('toggles publication with is_published (spec: Achievement publication state)', async () => {
    const a = await create(custom);
    expect(await h.api.achievements.patch(a.id, { is_published: true })).toMatchObject({ is_published: true, published_at: '2026-11-22T09:00:00+01:00' });
    expect(await h.api.achievements.update(a.id, { is_published: false })).toMatchObject({ is_published: false, published_at: null });
  });

  it('answers 422 for publishing a draft with an incomplete config and changes nothing (spec: Achievement publication state)', async () => {
    const a = await create({ type: 'employment', title: 'Tenure' });
    await expect(h.api.achievements.patch(a.id, { is_published: true, emoji: '🎂' })).rejects.toBeInstanceOf(ApiValidationError);
    expect(await h.api.achievements.get(a.id)).toMatchObject({ is_published: false, emoji: '⭐' });
  });

  it('answers 422 for clearing or incompleting the config of a published achievement, unchanged (spec: Achievement publication state)', async () => {
    const a = await create({ type: 'employment', title: 'Tenure', trigger_config: { months: 12 }, is_published: true });
    await expect(h.api.achievements.patch(a.id, { trigger_config: null })).rejects.toBeInstanceOf(ApiValidationError);
    // an empty config fits neither automatic type, so the client refuses it: raw HTTP
    expect((await h.raw('PUT', `/achievements/${a.id}`, { body: { trigger_config: {} } })).status).toBe(422);
    expect(await h.api.achievements.get(a.id)).toMatchObject({ is_published: true, trigger_config: { months: 12 } });
    expect((await h.api.achievements.patch(a.id, { trigger_config: { months: 24 } })).trigger_config).toEqual({ months: 24 });
  });

  it('answers 404 for an unknown achievement (spec: Endpoints, unknown ids)', async () => {
    await expect(h.api.achievements.get(42)).rejects.toBeInstanceOf(ApiNotFoundError);
    await expect(h.api.achievements.patch(42, { title: 'x' })).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('seeds published custom, employee-of-the-month, employment and completion achievements and a draft (issue: demo seed)', async () => {
    await h.reset('demo');
    const list = (await h.api.achievements.list()).data;
    expect(list.some((a) => a.type === 'custom' && a.is_published && a.visibility === 'public')).toBe(true);
    expect(list.some((a) => a.type === 'employee_of_the_month' && a.is_published)).toBe(true);
    expect(list.some((a) => !a.is_published)).toBe(true);
    expect(list.find((a) => a.type === 'employment')).toMatchObject({ is_published: true, trigger_config: { months: 12 } });
    expect(list.find((a) => a.type === 'completion')).toMatchObject({ is_published: true, trigger_config: { completable_type: 'handbook' } });
  });
});
