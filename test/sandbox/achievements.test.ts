import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

const auth = { authorization: 'Bearer svc_sandbox_token' };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

function build() {
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 8), frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed: 'empty' });
  ctx.db.setMeta('locales', { locales: { en: 'English', de: 'Deutsch', fr: 'Français' }, default: 'en' });
  const api = (method: Method, url: string, payload?: object) => sandbox.app.inject({ method, url: `/api/open/v1${url}`, headers: auth, ...(payload ? { payload } : {}) });
  const create = async (payload: object) => {
    const res = await api('POST', '/achievements', payload);
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
    return res.json().data as Record<string, unknown> & { id: number };
  };
  return { ...sandbox, ctx, clock, api, create };
}

const custom = { type: 'custom', title: 'Helper' };

describe('achievements (spec: Achievements; Achievement publication state)', () => {
  let s: ReturnType<typeof build>;
  afterEach(async () => s.app.close());

  it('answers 403 on every achievement endpoint when the feature is disabled (spec: Achievements; Errors)', async () => {
    s = build();
    const a = await s.create(custom);
    s.ctx.updateSettings({ achievements_enabled: false });
    const calls: [Method, string, object?][] = [
      ['GET', '/achievements'],
      ['GET', `/achievements/${a.id}`],
      ['POST', '/achievements', custom],
      ['PATCH', `/achievements/${a.id}`, { title: 'x' }],
      ['PUT', `/achievements/${a.id}`, { title: 'x' }],
      ['GET', `/achievements/${a.id}/awards`],
      ['POST', `/achievements/${a.id}/awards`, { awards: [{ user_id: 1, awarded_at: '2026-11-22' }] }],
      ['GET', '/users/1/achievements'],
    ];
    for (const [method, url, body] of calls) {
      const res = await s.api(method, url, body);
      expect({ url, method, status: res.statusCode }).toEqual({ url, method, status: 403 });
    }
    expect((await s.api('GET', `/achievements/${a.id}`)).json().error).toBe('forbidden');
  });

  it.each([
    ['employee_of_the_month', '👑', 'public'],
    ['completion', '🏆', 'personal'],
    ['employment', '⭐', 'public'],
    ['custom', '🤩', 'personal'],
  ])('defaults the emoji and visibility of %s to %s and %s (spec: Achievement)', async (type, emoji, visibility) => {
    s = build();
    const a = await s.create({ type, title: 'T' });
    expect(a).toMatchObject({ emoji, visibility, is_published: false, published_at: null, awarded_users_count: 0 });
  });

  it('answers with trigger_type tenure for employment, completion for completion, null otherwise (spec: Achievement)', async () => {
    s = build();
    expect((await s.create({ type: 'employment', title: 'T', trigger_config: { months: 6 } })).trigger_type).toBe('tenure');
    expect((await s.create({ type: 'completion', title: 'T' })).trigger_type).toBe('completion');
    expect(await s.create(custom)).toMatchObject({ trigger_type: null, trigger_config: null });
  });

  it('requires a title except for employee_of_the_month (spec: Achievements, create body)', async () => {
    s = build();
    const res = await s.api('POST', '/achievements', { type: 'custom' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('title');
  });

  it('names an untitled employee of the month "Employee of the month" in every active language (spec: Achievements, create body)', async () => {
    s = build();
    const a = await s.create({ type: 'employee_of_the_month' });
    expect(a.title).toBe('Employee of the month');
    expect((a.translations as { title: Record<string, string> }).title).toEqual({ en: 'Employee of the month', de: 'Employee of the month', fr: 'Employee of the month' });
  });

  it('answers 422 naming a locale that is not an active language and creates nothing (spec: Errors)', async () => {
    s = build();
    const res = await s.api('POST', '/achievements', { ...custom, translations: { title: { es: 'Ayudante' } } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('translations.title.es');
    expect((await s.api('GET', '/achievements')).json().meta.total).toBe(0);
  });

  it('validates translations against en and de when the company has no locales set (spec: Achievements, create body)', async () => {
    s = build();
    s.ctx.db.setMeta('locales', null);
    expect((await s.api('POST', '/achievements', { ...custom, translations: { title: { de: 'Helfer' } } })).statusCode).toBe(201);
    expect((await s.api('POST', '/achievements', { ...custom, translations: { title: { fr: 'Aide' } } })).statusCode).toBe(422);
  });

  it('answers 422 for trigger_config on a type other than completion or employment (spec: Errors)', async () => {
    s = build();
    const res = await s.api('POST', '/achievements', { ...custom, trigger_config: { months: 3 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('trigger_config');
  });

  it('answers 422 for an incomplete trigger_config and for months below 1 (spec: Trigger configuration; Limits)', async () => {
    s = build();
    expect((await s.api('POST', '/achievements', { type: 'completion', title: 'T', trigger_config: { completable_type: 'handbook' } })).statusCode).toBe(422);
    const zero = await s.api('POST', '/achievements', { type: 'employment', title: 'T', trigger_config: { months: 0 } });
    expect(zero.statusCode).toBe(422);
    expect(zero.json().message).toContain('months');
  });

  it('answers 422 for publishing an automatic achievement without a complete config, creating nothing (spec: Achievement publication state)', async () => {
    s = build();
    const res = await s.api('POST', '/achievements', { type: 'employment', title: 'T', is_published: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('trigger_config');
    expect((await s.api('GET', '/achievements')).json().meta.total).toBe(0);
  });

  it('links only published handbooks or courses and published onboarding or custom journeys (spec: Trigger configuration)', async () => {
    s = build();
    const id = async (path: string, body: object) => (await s.api('POST', path, body)).json().data.id as number;
    const draftHandbook = await id('/handbooks', { title: 'H', is_published: false });
    const course = await id('/courses', { title: 'C' });
    const offboarding = s.ctx.db.insert('journeys', { title: 'Off', description: null, type: 'offboarding', is_published: true, created_at: 0, updated_at: 0 }).id;
    const onboarding = s.ctx.db.insert('journeys', { title: 'On', description: null, type: 'onboarding', is_published: true, created_at: 0, updated_at: 0 }).id;
    const link = (completable_type: string, ids: number[]) => s.api('POST', '/achievements', { type: 'completion', title: 'T', trigger_config: { completable_type, completable_ids: ids } });
    const refused = await link('handbook', [draftHandbook]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('trigger_config.completable_ids.0');
    expect((await link('journey', [onboarding, offboarding])).json().message).toContain('trigger_config.completable_ids.1');
    expect((await link('handbook', [999])).statusCode).toBe(422);
    expect((await link('course', [course])).statusCode).toBe(201);
    expect((await link('journey', [onboarding])).statusCode).toBe(201);
  });

  it('refuses an emoji longer than 16 characters (spec: Limits)', async () => {
    s = build();
    expect((await s.api('POST', '/achievements', { ...custom, emoji: 'x'.repeat(17) })).statusCode).toBe(422);
    expect((await s.api('POST', '/achievements', { ...custom, emoji: '🎉'.repeat(16) })).statusCode).toBe(201);
  });

  it('lists newest first with drafts, filtered by is_published, type, visibility and since (spec: Achievements, list query)', async () => {
    s = build();
    const first = await s.create({ ...custom, is_published: true });
    s.clock.advance(60_000);
    const second = await s.create({ type: 'employee_of_the_month' });
    const ids = async (q: string) => (await s.api('GET', `/achievements${q}`)).json().data.map((a: { id: number }) => a.id);
    expect(await ids('')).toEqual([second.id, first.id]);
    expect(await ids('?is_published=true')).toEqual([first.id]);
    expect(await ids('?is_published=false')).toEqual([second.id]);
    expect(await ids('?type=employee_of_the_month')).toEqual([second.id]);
    expect(await ids('?visibility=personal')).toEqual([first.id]);
    expect(await ids(`?since=${encodeURIComponent('2026-11-22T09:00:30+01:00')}`)).toEqual([second.id]);
    expect((await s.api('GET', '/achievements?type=badge')).statusCode).toBe(422);
  });

  it('changes only the sent fields and merges translations (spec: Achievements, update)', async () => {
    s = build();
    const a = await s.create({ ...custom, description: 'Helps', translations: { title: { de: 'Helfer', fr: 'Aide' } } });
    const res = await s.api('PATCH', `/achievements/${a.id}`, { emoji: '🙌', translations: { title: { de: 'Helferin' } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'Helper', description: 'Helps', emoji: '🙌', translations: { title: { en: 'Helper', de: 'Helferin', fr: 'Aide' } } });
    const title = await s.api('PUT', `/achievements/${a.id}`, { title: 'Great helper' });
    expect(title.json().data).toMatchObject({ title: 'Great helper', emoji: '🙌', translations: { title: { en: 'Great helper', de: 'Helferin' } } });
  });

  it('refuses emptying the default-language title, through title or translations (spec: Errors)', async () => {
    s = build();
    const a = await s.create(custom);
    expect((await s.api('PATCH', `/achievements/${a.id}`, { title: '' })).statusCode).toBe(422);
    const viaTranslations = await s.api('PATCH', `/achievements/${a.id}`, { translations: { title: { en: '' } } });
    expect(viaTranslations.statusCode).toBe(422);
    expect(viaTranslations.json().message).toContain('translations.title.en');
    expect((await s.api('GET', `/achievements/${a.id}`)).json().data.title).toBe('Helper');
  });

  it('answers 422 for a different type and accepts the current one (spec: Achievement publication state)', async () => {
    s = build();
    const a = await s.create(custom);
    const changed = await s.api('PATCH', `/achievements/${a.id}`, { type: 'employment' });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().message).toContain('type');
    expect((await s.api('PUT', `/achievements/${a.id}`, { type: 'custom', title: 'Same' })).json().data).toMatchObject({ type: 'custom', title: 'Same' });
  });

  it('toggles publication with is_published (spec: Achievement publication state)', async () => {
    s = build();
    const a = await s.create(custom);
    expect((await s.api('PATCH', `/achievements/${a.id}`, { is_published: true })).json().data).toMatchObject({ is_published: true, published_at: '2026-11-22T09:00:00+01:00' });
    expect((await s.api('PUT', `/achievements/${a.id}`, { is_published: false })).json().data).toMatchObject({ is_published: false, published_at: null });
  });

  it('answers 422 for publishing a draft with an incomplete config and changes nothing (spec: Achievement publication state)', async () => {
    s = build();
    const a = await s.create({ type: 'employment', title: 'Tenure' });
    const res = await s.api('PATCH', `/achievements/${a.id}`, { is_published: true, emoji: '🎂' });
    expect(res.statusCode).toBe(422);
    expect((await s.api('GET', `/achievements/${a.id}`)).json().data).toMatchObject({ is_published: false, emoji: '⭐' });
  });

  it('answers 422 for clearing or incompleting the config of a published achievement, unchanged (spec: Achievement publication state)', async () => {
    s = build();
    const a = await s.create({ type: 'employment', title: 'Tenure', trigger_config: { months: 12 }, is_published: true });
    expect((await s.api('PATCH', `/achievements/${a.id}`, { trigger_config: null })).statusCode).toBe(422);
    expect((await s.api('PUT', `/achievements/${a.id}`, { trigger_config: {} })).statusCode).toBe(422);
    expect((await s.api('GET', `/achievements/${a.id}`)).json().data).toMatchObject({ is_published: true, trigger_config: { months: 12 } });
    expect((await s.api('PATCH', `/achievements/${a.id}`, { trigger_config: { months: 24 } })).json().data.trigger_config).toEqual({ months: 24 });
  });

  it('answers 404 for an unknown achievement (spec: Endpoints, unknown ids)', async () => {
    s = build();
    expect((await s.api('GET', '/achievements/42')).statusCode).toBe(404);
    expect((await s.api('PATCH', '/achievements/42', { title: 'x' })).statusCode).toBe(404);
  });

  it('seeds published custom, employee-of-the-month, employment and completion achievements and a draft (issue: demo seed)', async () => {
    s = build();
    s.reset({ seed: 'demo' });
    const list = (await s.api('GET', '/achievements')).json().data as { type: string; is_published: boolean; visibility: string; trigger_config: unknown }[];
    expect(list.some((a) => a.type === 'custom' && a.is_published && a.visibility === 'public')).toBe(true);
    expect(list.some((a) => a.type === 'employee_of_the_month' && a.is_published)).toBe(true);
    expect(list.some((a) => !a.is_published)).toBe(true);
    expect(list.find((a) => a.type === 'employment')).toMatchObject({ is_published: true, trigger_config: { months: 12 } });
    expect(list.find((a) => a.type === 'completion')).toMatchObject({ is_published: true, trigger_config: { completable_type: 'handbook' } });
  });
});
