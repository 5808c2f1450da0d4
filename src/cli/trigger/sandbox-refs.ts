import type { IntrabotApi } from '../../api/create-api-client';
import type { EmbeddedUser } from '../../webhooks/payload-parts';
import type { RefName, TriggerRefs } from './sample-payloads';

/** At most this many walls are looked through for a post by an employee. */
const MAX_WALLS = 5;

export interface RefsQuery {
  /** The entities the event's sample names. */
  wanted: readonly RefName[];
  /** The walls the bot listens to for the event; undefined: every wall. */
  walls?: readonly number[] | undefined;
}

/**
 * Real entities of the running sandbox for a sample payload, read through its API: an employee (one
 * in a department, so department walls work), the newest post by an employee on a wall the bot
 * listens to, a published announcement, a form response, a public achievement. Creates nothing.
 * What cannot be found (or read) is left out: the sample makes it up.
 */
export async function sandboxRefs(api: IntrabotApi, query: RefsQuery): Promise<Partial<TriggerRefs>> {
  const finders: { [K in RefName]: () => Promise<TriggerRefs[K] | undefined> } = {
    user: () => findEmployee(api),
    post: () => findPost(api, query.walls),
    announcement: () => findAnnouncement(api),
    response: () => findResponse(api),
    achievement: () => findAchievement(api),
  };
  const refs: Partial<TriggerRefs> = {};
  for (const name of query.wanted) {
    const found = await finders[name]().catch(() => undefined);
    if (found !== undefined) Object.assign(refs, { [name]: found });
  }
  return refs;
}

const isEmployee = (user: { type?: string | undefined }): boolean => user.type === undefined || user.type === 'default';

async function findEmployee(api: IntrabotApi): Promise<EmbeddedUser | undefined> {
  const { data } = await api.users.list({ per_page: 50 });
  const employees = data.filter(isEmployee);
  return employees.find((u) => u.groups.some((g) => g.type === 'department')) ?? employees[0];
}

async function findPost(api: IntrabotApi, walls: readonly number[] | undefined): Promise<TriggerRefs['post'] | undefined> {
  const wallIds = walls ?? (await api.walls.list({ per_page: MAX_WALLS })).data.map((w) => w.id);
  for (const wallId of wallIds.slice(0, MAX_WALLS)) {
    const { data } = await api.posts.list(wallId);
    const newest = data.filter((p) => isEmployee(p.author)).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
    if (newest) return { id: newest.id, wall_id: newest.wall_id, wall_name: newest.wall_name, author: newest.author };
  }
  return undefined;
}

async function findAnnouncement(api: IntrabotApi): Promise<TriggerRefs['announcement'] | undefined> {
  const { data } = await api.announcements.list();
  return data.find((a) => a.is_published);
}

async function findResponse(api: IntrabotApi): Promise<TriggerRefs['response'] | undefined> {
  const { data: forms } = await api.forms.list();
  for (const form of forms.filter((f) => typeof f.responses_count !== 'number' || f.responses_count > 0).slice(0, 3)) {
    const [response] = (await api.forms.responses(form.id)).data;
    if (response) return { id: response.id, form_id: form.id, status: response.status ?? 'submitted' };
  }
  return undefined;
}

async function findAchievement(api: IntrabotApi): Promise<TriggerRefs['achievement'] | undefined> {
  const { data } = await api.achievements.list();
  const celebrated = data.filter((a) => a.visibility === 'public' && a.is_published);
  return celebrated.find((a) => a.type === 'custom') ?? celebrated[0];
}
