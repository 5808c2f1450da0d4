import { describe, expect, it } from 'vitest';
import { endpointList } from '../../src/api/schemas/endpoints';
import { pngBytes, useHttpSandbox, type HttpSandbox } from './http-harness';
import { specViolations, type ResourceName } from './spec-field-types';

type Json = Record<string, unknown>;

/**
 * GET endpoints whose answers the spec does not show (spec: Resources and their fields — "Fields of
 * forms, form responses, ... confirmations and notifications: not shown"; "Fields of an
 * incoming-webhook management record: not shown"; Other endpoints that exist — GET /token). They are
 * requested by the walk (they must answer), but their fields are our choice and not checked.
 */
const NOT_SHOWN = new Set([
  'GET /announcements/{id}/confirmations',
  'GET /confirmations',
  'GET /incoming-webhooks',
  'GET /incoming-webhooks/{id}',
  'GET /token',
  'GET /forms',
  'GET /forms/{id}',
  'GET /forms/{id}/responses',
  'GET /form-responses/{id}',
  'GET /journeys',
  'GET /staff-cards',
  'GET /handbooks',
  'GET /courses',
  'GET /articles',
  'GET /articles/{id}',
  'GET /certificates',
  'GET /certificate-types',
  'GET /calendar-event-types',
  'GET /locales',
  'GET /org-chart',
  'GET /manager-hub',
]);

interface Walk {
  /** Endpoint templates requested (`GET /walls/{id}`). */
  visited: Set<string>;
  /** Every field that breaks the spec's table, naming the request and the path to it. */
  violations: string[];
}

/**
 * Content the demo seed does not have, made the way a bot would, sending as few fields as the API
 * allows, so that the fields "not sent" are walked too: an event without an end, an entry without
 * times or description, a user without a hire date, a draft announcement, media, a webhook, awards
 * given through the API, an announcement confirmed by an employee.
 */
async function addContent(h: HttpSandbox): Promise<void> {
  const wallId = h.refs.company_wall_id;
  const image = await h.api.media.uploadFile({ type: 'image', data: pngBytes(64, 48), filename: 'chart.png', contentType: 'image/png' });
  const doc = await h.api.media.uploadFile({ type: 'document', data: new TextEncoder().encode('minutes'), filename: 'minutes.txt', contentType: 'text/plain' });
  await h.api.posts.create(wallId, { body: 'With attachments', media_ids: [image.id, doc.id] });
  await h.api.events.create({ title: 'Bare event', body: 'No end, no time', starts_at: '2026-12-03' });
  await h.api.calendarEntries.create({ title: 'Bare entry', starts_at: '2026-12-04' });
  await h.api.announcements.create({ title: 'Draft notice', body: 'Not yet', is_published: false });
  await h.api.users.create({ email: 'no.hire.date@sandbox.example', first_name: 'No', last_name: 'Hiredate' });
  await h.api.webhooks.create({ name: 'walk', url: 'http://127.0.0.1:9/hook', events: ['service.post.created'] });
  await h.api.incomingWebhooks.create({ name: 'walk', action: 'wall_post', wall_id: wallId });
  const custom = (await h.api.achievements.list({ per_page: 50, is_published: true, type: 'custom' })).data[0];
  if (custom) await h.platform.award(custom.id, h.refs.employee_ids[0] as number);
  const confirmable = (await h.api.announcements.list({ per_page: 50 })).data.find((a) => a.is_confirmable);
  if (confirmable) await h.control.send('POST', `/announcements/${confirmable.id}/confirm`, { user_id: h.refs.employee_ids[1] });
}

/** Walks every GET endpoint of the reference over real HTTP, checking each spec-typed answer against its table. */
async function walkEveryGet(h: HttpSandbox): Promise<Walk> {
  const walk: Walk = { visited: new Set(), violations: [] };

  const get = async (template: string, path: string): Promise<Json> => {
    walk.visited.add(`GET ${template}`);
    const res = await h.raw('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    return res.json<Json>();
  };
  const check = (value: unknown, resource: ResourceName, where: string): void => {
    walk.violations.push(...specViolations(value, resource, where));
  };
  /** Every page of a list (spec: Pagination), each item checked; answers the items. */
  const list = async (template: string, path: string, resource: ResourceName | null): Promise<Json[]> => {
    const items: Json[] = [];
    for (let page = 1, last = 1; page <= last; page += 1) {
      const body = await get(template, `${path}${path.includes('?') ? '&' : '?'}per_page=50&page=${page}`);
      last = (body.meta as { last_page?: number } | undefined)?.last_page ?? 1;
      items.push(...(body.data as Json[]));
    }
    if (resource) items.forEach((item) => check(item, resource, `GET ${path} item ${String(item.id)}`));
    return items;
  };
  const one = async (template: string, path: string, resource: ResourceName | null): Promise<Json> => {
    const data = (await get(template, path)).data as Json;
    if (resource) check(data, resource, `GET ${path}`);
    return data;
  };

  for (const wall of await list('/walls', '/walls', 'Wall')) {
    await one('/walls/{id}', `/walls/${String(wall.id)}`, 'Wall');
    for (const post of await list('/walls/{wall_id}/posts', `/walls/${String(wall.id)}/posts?status=all`, 'Post')) {
      await one('/walls/{wall_id}/posts/{id}', `/walls/${String(wall.id)}/posts/${String(post.id)}`, 'Post');
      for (const media of post.media as Json[]) await one('/media/{id}', `/media/${String(media.id)}`, 'Media');
      for (const comment of await list('/posts/{post_id}/comments', `/posts/${String(post.id)}/comments`, 'Comment')) {
        await one('/posts/{post_id}/comments/{id}', `/posts/${String(post.id)}/comments/${String(comment.id)}`, 'Comment');
      }
    }
  }
  for (const a of await list('/announcements', '/announcements?status=all', 'Announcement')) {
    await one('/announcements/{id}', `/announcements/${String(a.id)}`, 'Announcement');
    await list('/announcements/{id}/confirmations', `/announcements/${String(a.id)}/confirmations`, null);
  }
  // a confirmation's own fields are not shown, but the employee it embeds is a User (spec: Events, announcement.confirmed)
  for (const c of await list('/confirmations', '/confirmations', null)) check(c.user, 'EmbeddedUser', `GET /confirmations item ${String(c.id)}.user`);
  for (const e of await list('/events', '/events?status=all', 'Event')) await one('/events/{id}', `/events/${String(e.id)}`, 'Event');
  for (const e of await list('/calendar-entries', '/calendar-entries?status=all', 'CalendarEntry')) {
    await one('/calendar-entries/{id}', `/calendar-entries/${String(e.id)}`, 'CalendarEntry');
  }
  for (const u of await list('/users', '/users', 'User')) {
    await one('/users/{id}', `/users/${String(u.id)}`, 'User');
    // spec: Achievements — GET /users/{id}/achievements is a 404 for kiosk, bot and shadow users
    if (u.type !== 'default') continue;
    for (const award of (await get('/users/{id}/achievements', `/users/${String(u.id)}/achievements`)).data as Json[]) {
      check(award, 'Award', `GET /users/${String(u.id)}/achievements item ${String(award.id)}`);
    }
  }
  for (const g of await list('/groups', '/groups', 'Group')) await one('/groups/{id}', `/groups/${String(g.id)}`, 'Group');
  for (const b of await list('/bots', '/bots', 'BotUser')) await one('/bots/{id}', `/bots/${String(b.id)}`, 'BotUser');
  for (const a of await list('/achievements', '/achievements', 'Achievement')) {
    await one('/achievements/{id}', `/achievements/${String(a.id)}`, 'Achievement');
    await list('/achievements/{id}/awards', `/achievements/${String(a.id)}/awards`, 'Award');
  }
  await one('/stats/users', '/stats/users', 'StatsUsers');
  for (const period of (await get('/stats/engagement', '/stats/engagement')).data as Json[])
    check(period, 'StatsEngagementPeriod', 'GET /stats/engagement item');
  await one('/stats/adoption', '/stats/adoption', 'StatsAdoption');
  await one('/stats/content', '/stats/content', 'StatsContent');
  for (const w of await list('/webhooks', '/webhooks', 'WebhookEndpoint')) {
    await one('/webhooks/{id}', `/webhooks/${String(w.id)}`, 'WebhookEndpoint');
    await one('/webhooks/{id}/secret', `/webhooks/${String(w.id)}/secret`, 'WebhookSecret');
  }
  for (const hook of await list('/incoming-webhooks', '/incoming-webhooks', null))
    await one('/incoming-webhooks/{id}', `/incoming-webhooks/${String(hook.id)}`, null);
  await one('/token', '/token', null);
  for (const form of await list('/forms', '/forms', null)) {
    await one('/forms/{id}', `/forms/${String(form.id)}`, null);
    for (const response of await list('/forms/{id}/responses', `/forms/${String(form.id)}/responses`, null)) {
      await one('/form-responses/{id}', `/form-responses/${String(response.id)}`, null);
    }
  }
  for (const path of ['/journeys', '/staff-cards', '/handbooks', '/courses', '/certificates', '/certificate-types', '/calendar-event-types', '/org-chart']) {
    await list(path, path, null);
  }
  for (const article of await list('/articles', '/articles', null)) await one('/articles/{id}', `/articles/${String(article.id)}`, null);
  await one('/locales', '/locales', null);
  await one('/manager-hub', '/manager-hub', null);
  return walk;
}

describe("sandbox answers against the spec's field types (spec: Resources and their fields)", () => {
  const h = useHttpSandbox();

  it('walks every GET endpoint of the reference, so the check below misses none', async () => {
    await addContent(h);
    const { visited } = await walkEveryGet(h);
    const everyGet = endpointList.filter((e) => e.method === 'GET').map((e) => `GET ${e.path}`);
    expect([...visited].sort()).toEqual(everyGet.sort());
    // a not-shown endpoint is walked like the others, only its fields are not checked
    for (const endpoint of NOT_SHOWN) expect(everyGet).toContain(endpoint);
  });

  it('never answers null for a field the spec types without "or null", on the demo seed and content made with the fewest fields', async () => {
    await addContent(h);
    const { violations } = await walkEveryGet(h);
    expect(violations).toEqual([]);
  });

  it('sends webhook payloads without null where the spec types a field without "or null" (spec: Events)', async () => {
    await addContent(h);
    await h.api.announcements.create({ title: 'Published notice', body: 'Now' });
    const post = await h.platform.employeePost(h.refs.employee_ids[2] as number, { wall_id: h.refs.company_wall_id, body: 'From an employee' });
    await h.platform.employeeComment(h.refs.employee_ids[3] as number, { post_id: post.id, body: 'Replying' });
    await h.platform.register(h.refs.pending_user_id);
    await h.platform.completeOnboarding(h.refs.employee_ids[4] as number);
    const typed: Record<string, ResourceName> = {
      'post.created': 'PostCreatedPayload',
      'announcement.published': 'Announcement',
      'achievement.awarded': 'Award',
      'comment.created': 'Comment',
      'user.registered': 'User',
    };
    const seen = h.events.filter((e) => e.event in typed);
    expect(new Set(seen.map((e) => e.event))).toEqual(new Set(Object.keys(typed)));
    const violations = seen.flatMap((e) => specViolations(e.payload, typed[e.event] as ResourceName, `${e.event} payload`));
    // payloads whose own fields are not shown embed Users: the confirming employee, the onboarded user
    for (const e of h.events.filter((x) => x.event === 'announcement.confirmed'))
      violations.push(...specViolations(e.payload.employee, 'User', 'announcement.confirmed payload.employee'));
    for (const e of h.events.filter((x) => x.event === 'onboarding.completed'))
      violations.push(...specViolations(e.payload.user, 'User', 'onboarding.completed payload.user'));
    expect(h.events.map((e) => e.event)).toEqual(expect.arrayContaining(['announcement.confirmed', 'onboarding.completed']));
    expect(violations).toEqual([]);
  });
});
