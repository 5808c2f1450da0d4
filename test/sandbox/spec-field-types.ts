/**
 * The spec's resources as tables of fields (spec: Resources and their fields; Endpoints, Statistics;
 * Events), to check what the sandbox serializes against them: a field the spec types without
 * "or null" is never null, and a field it lists without a note that it is sometimes absent is
 * always there. Fields the sandbox adds (the spec allows additive fields: Versioning) are not
 * checked; neither are resources whose fields the spec does not show.
 */

export interface FieldRule {
  /** The spec types it "... or null". */
  nullable?: true;
  /** A note of the spec says where it is absent (e.g. `managers` only on the /groups endpoints). */
  optional?: true;
  /** Null is allowed only on objects this holds for (a note that narrows the type). */
  nullWhen?: (owner: Record<string, unknown>) => boolean;
  /** The object, or each item of the array, is this resource. */
  embed?: ResourceName;
}

const n: FieldRule = { nullable: true };
const req: FieldRule = {};
const embed = (resource: ResourceName, rule: FieldRule = {}): FieldRule => ({ ...rule, embed: resource });

const group = { id: req, name: req, type: req, created_at: req };

/** spec: User — "avatar_url string or null", "title string or null", "date_of_birth date or null"; every other field is non-null. */
const user: Record<string, FieldRule> = {
  id: req,
  name: req,
  first_name: req,
  last_name: req,
  email: req,
  type: req,
  avatar_url: n,
  title: n,
  groups: embed('MembershipGroup'),
  is_manager: req,
  hired_at: req,
  date_of_birth: n,
  is_away: req,
  last_active_on: req,
  registered_at: req,
  created_at: req,
};

/** Every field optional: "User (embedded, possibly reduced)", "User-like object" — what is there keeps its type. */
function reduced(fields: Record<string, FieldRule>): Record<string, FieldRule> {
  return Object.fromEntries(Object.entries(fields).map(([k, rule]) => [k, { ...rule, optional: true as const }]));
}

const achievement: Record<string, FieldRule> = {
  id: req,
  title: req,
  description: n,
  translations: req,
  emoji: req,
  type: req,
  visibility: req,
  trigger_type: n,
  trigger_config: n,
  awarded_users_count: req,
  is_published: req,
  published_at: n,
  created_at: req,
  updated_at: req,
};

const periods = { this_week: req, last_week: req, total: req };

export type ResourceName =
  | 'Group'
  | 'MembershipGroup'
  | 'EmbeddedGroup'
  | 'User'
  | 'EmbeddedUser'
  | 'ReducedUser'
  | 'MinimalUser'
  | 'Wall'
  | 'Post'
  | 'PostCreatedPayload'
  | 'Comment'
  | 'Media'
  | 'Announcement'
  | 'Event'
  | 'CalendarEntry'
  | 'BotUser'
  | 'Achievement'
  | 'AchievementSummary'
  | 'Award'
  | 'AwardDepartment'
  | 'WebhookEndpoint'
  | 'WebhookSecret'
  | 'StatsUsers'
  | 'StatsEngagementPeriod'
  | 'StatsAdoption'
  | 'StatsAdoptionRate'
  | 'StatsAdoptionDepartment'
  | 'StatsContent'
  | 'StatsPeriods';

export const SPEC_RESOURCES: Record<ResourceName, Record<string, FieldRule>> = {
  /** spec: Group — `managers` "Only on the /groups endpoints". */
  Group: { ...group, managers: { optional: true } },
  /** spec: Group — "Where a group is embedded in a user's groups[], each entry also carries is_manager". */
  MembershipGroup: { ...group, is_manager: req },
  EmbeddedGroup: group,
  User: user,
  /** spec: Announcement.author "User (embedded, possibly reduced)"; Award.assigned_by "User-like object". */
  EmbeddedUser: { ...reduced(user), id: req, name: req },
  /** spec: Event.author — "object { id, name, email, avatar_url }: Reduced user" (avatar_url keeps User's "or null"). */
  ReducedUser: { id: req, name: req, email: req, avatar_url: n },
  /** spec: Calendar entry.author — "object { id, name, email }"; also the author of `service.post.created`. */
  MinimalUser: { id: req, name: req, email: req },
  Wall: { id: req, name: req, groups: embed('EmbeddedGroup'), created_at: req },
  Post: { id: req, body: req, wall_id: req, wall_name: req, author: embed('User'), created_at: req, updated_at: req },
  /** spec: Events, service.post.created — "Payload: { id, body, wall_id, wall_name, author { id, name, email }, created_at, updated_at }". */
  PostCreatedPayload: { id: req, body: req, wall_id: req, wall_name: req, author: embed('MinimalUser'), created_at: req, updated_at: req },
  Comment: { id: req, body: req, post_id: req, wall_id: req, author: embed('User'), created_at: req, updated_at: req },
  /** spec: Media — width and height "For images (and as supplied for others)": null is an answer only for other types. */
  Media: {
    id: req,
    type: req,
    mime_type: req,
    filename: req,
    size: req,
    url: req,
    width: { nullWhen: (m) => m.type !== 'image' },
    height: { nullWhen: (m) => m.type !== 'image' },
    created_at: req,
  },
  Announcement: {
    id: req,
    article_id: req,
    title: req,
    subtitle: n,
    body: req,
    author: embed('EmbeddedUser'),
    groups: embed('EmbeddedGroup'),
    is_published: req,
    is_commentable: req,
    is_confirmable: req,
    is_pinned: req,
    comments_count: req,
    completions_count: req,
    confirmations_count: req,
    starts_at: req,
    published_at: n,
    created_at: req,
    updated_at: req,
  },
  Event: {
    id: req,
    article_id: req,
    title: req,
    body: req,
    starts_at: req,
    starts_time: n,
    ends_at: req,
    ends_time: n,
    location: n,
    author: embed('ReducedUser'),
    groups: embed('EmbeddedGroup'),
    is_published: req,
    comments_count: req,
    completions_count: req,
    published_at: n,
    scheduled_at: n,
    created_at: req,
    updated_at: req,
  },
  /** spec: Calendar entry — "starts_at, ends_at: date", "starts_time, ends_time: time", "body: string or null". */
  CalendarEntry: {
    id: req,
    title: req,
    body: n,
    starts_at: req,
    ends_at: req,
    starts_time: req,
    ends_time: req,
    author: embed('MinimalUser'),
    groups: embed('EmbeddedGroup'),
    calendar_event_type: req,
    article_id: req,
    created_at: req,
    updated_at: req,
  },
  /** spec: Bot user — `avatar_url` "string", "Defaults to the customer app icon". */
  BotUser: { id: req, name: req, avatar_url: req, created_at: req },
  Achievement: achievement,
  /** spec: Award.achievement — "abbreviated: id, title, emoji, type, visibility, awarded_users_count, is_published and more". */
  AchievementSummary: {
    ...reduced(achievement),
    id: req,
    title: req,
    emoji: req,
    type: req,
    visibility: req,
    awarded_users_count: req,
    is_published: req,
  },
  /** spec: Award — `user` and `achievement` are embedded only on some endpoints (see their notes). */
  Award: {
    id: req,
    awarded_at: req,
    is_manually_added: req,
    department: embed('AwardDepartment', n),
    assigned_by: embed('EmbeddedUser', n),
    user: embed('User', { optional: true }),
    achievement: embed('AchievementSummary', { optional: true }),
    created_at: req,
    updated_at: req,
  },
  /** spec: Award.department — "object { id, name, type } or null". */
  AwardDepartment: { id: req, name: req, type: req },
  WebhookEndpoint: {
    id: req,
    name: req,
    url: req,
    is_active: req,
    events: req,
    filters: req,
    auth_type: n,
    custom_headers: n,
    secret: req,
    total_deliveries: req,
    last_used_at: n,
    revoked_at: n,
    created_at: req,
    updated_at: req,
  },
  /** spec: Outgoing webhook management — GET /webhooks/{id}/secret answers `{ data: { secret } }`. */
  WebhookSecret: { secret: req },
  /** spec: Statistics — GET /stats/users: integers. */
  StatsUsers: {
    total: req,
    registered: req,
    active_yesterday: req,
    active_7d: req,
    active_30d: req,
    new_yesterday: req,
    new_7d: req,
    new_30d: req,
  },
  /** spec: Statistics — GET /stats/engagement, weekly (the default): `week` is the period key. */
  StatsEngagementPeriod: { year: req, week: req, total_users: req, app_users: req, active_users: req, app_time: req, sessions: req },
  StatsAdoption: { adoption_rate: embed('StatsAdoptionRate') },
  StatsAdoptionRate: { average: req, departments: embed('StatsAdoptionDepartment') },
  StatsAdoptionDepartment: { id: req, name: req, active: req, not_active: req, total_employees: req, average: req },
  StatsContent: {
    posts: embed('StatsPeriods'),
    comments: embed('StatsPeriods'),
    reactions: embed('StatsPeriods'),
    chat_messages: embed('StatsPeriods'),
    todo_tasks_completed: embed('StatsPeriods'),
  },
  StatsPeriods: periods,
};

/**
 * Every way `value` breaks the spec's table for `resource`, as lines naming where: a field it types
 * without "or null" that is null, or a field it always lists that is missing. Embedded resources
 * are checked too.
 */
export function specViolations(value: unknown, resource: ResourceName, where: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${where}: expected a ${resource} object, got ${JSON.stringify(value)}`];
  const owner = value as Record<string, unknown>;
  const out: string[] = [];
  for (const [field, rule] of Object.entries(SPEC_RESOURCES[resource])) {
    const at = `${where}.${field}`;
    if (!(field in owner)) {
      if (!rule.optional) out.push(`${at} is missing (spec: ${resource})`);
      continue;
    }
    const fieldValue = owner[field];
    if (fieldValue === null) {
      if (!rule.nullable && !rule.nullWhen?.(owner)) out.push(`${at} is null; the spec types ${resource}.${field} without "or null"`);
      continue;
    }
    const embedded = rule.embed;
    if (embedded === undefined) continue;
    if (!Array.isArray(fieldValue)) out.push(...specViolations(fieldValue, embedded, at));
    else fieldValue.forEach((item, i) => out.push(...specViolations(item, embedded, `${at}[${i}]`)));
  }
  return out;
}
