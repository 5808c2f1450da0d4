import type { IntrabotApi } from '../../api/create-api-client';
import type { EmbeddedUser } from '../../webhooks/payload-parts';
import type { RefName, TriggerRefs } from './sample-payloads';

export interface RefsQuery {
  /** The entities the event's sample names. */
  wanted: readonly RefName[];
  /** The walls the bot listens to for the event; undefined: every wall. */
  walls?: readonly number[] | undefined;
  /** The sandbox's address, for its control API (an employee's post). */
  sandboxUrl: string;
  /** The body of the post made for the sample: the command itself for post.created. */
  postBody: string;
}

/**
 * Real entities of the running sandbox for a sample payload, read through its API: an employee (one
 * in a department, so department walls work), a published announcement, a form response, a public
 * achievement; and a post of its own by that employee on a wall the bot listens to, made through the
 * control API without its post.created (the command the sample sends is answered under it, never
 * under someone's real post). What cannot be found (or read) is left out: the sample makes it up.
 */
export async function sandboxRefs(api: IntrabotApi, query: RefsQuery): Promise<Partial<TriggerRefs>> {
  const finders: { [K in RefName]: () => Promise<TriggerRefs[K] | undefined> } = {
    user: () => findEmployee(api),
    post: () => makePost(api, query),
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

async function makePost(api: IntrabotApi, query: RefsQuery): Promise<TriggerRefs['post'] | undefined> {
  const author = await findEmployee(api);
  const wallId = query.walls?.[0] ?? (await api.walls.list({ per_page: 1 })).data[0]?.id;
  if (!author || wallId === undefined) return undefined;
  const res = await fetch(`${query.sandboxUrl}/_sandbox/users/${author.id}/posts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wall_id: wallId, body: query.postBody, silent: true }),
    signal: AbortSignal.timeout(5_000),
  });
  if (!res.ok) return undefined;
  const { data } = (await res.json()) as { data: { id: number; wall_id: number; wall_name: string } };
  return { id: data.id, wall_id: data.wall_id, wall_name: data.wall_name, author };
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
