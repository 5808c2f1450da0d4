import type { SandboxContext } from '../../context';
import type { SeedOptions } from '../../module';
import { directoryRefs } from '../../seed/directory-refs';
import { POSTS_KIND, type CommentRecord, type PostRecord } from './records';

const HOUR_MS = 3_600_000;

/** [wall (department name or "Company"), author role, hours ago, body, comments [author role, minutes later, body]] */
type SeedPost = [string, string, number, string, [string, number, string][]];

const POSTS: SeedPost[] = [
  [
    'Company',
    'People',
    240,
    'Welcome to our new intranet! Introduce yourself in the comments.',
    [
      ['employee:0', 30, 'Hello everyone!'],
      ['employee:1', 95, 'Great to be here.'],
    ],
  ],
  ['Company', 'bot', 200, 'Reminder: the summer party sign-up closes on Friday.', []],
  [
    'Engineering',
    'Engineering',
    170,
    'The release train leaves on Thursday; please merge by Wednesday noon.',
    [['employee:2', 12, 'Noted, my branch is ready.']],
  ],
  ['Sales', 'Sales', 120, 'We closed the quarter at 112% of target. Thank you all!', [['employee:3', 40, 'Amazing work, team.']]],
  ['Operations', 'Operations', 75, 'The warehouse will be closed for inventory next Monday.', []],
  ['People', 'People', 30, 'Open enrolment for the learning budget starts today.', [['employee:4', 20, 'Where do I find the form?']]],
  ['Company', 'Engineering', 6, 'Our status page moved to a new address; update your bookmarks.', []],
];

/**
 * A few weeks of wall life for `demo` and `large`: posts by the department heads and the seeded bot,
 * some with comments, dated in the past (seeding fires no events; nothing is subscribed yet).
 */
export function seedPosts(ctx: SandboxContext, options: SeedOptions): void {
  const refs = directoryRefs(ctx);
  if (options.seed === 'empty' || !refs) return;
  const author = (role: string): number => {
    if (role === 'bot') return refs.bot_user_id;
    if (role.startsWith('employee:')) return refs.employee_ids[Number(role.slice(9)) % refs.employee_ids.length] as number;
    return refs.managers[role] ?? refs.admin_user_id;
  };
  for (const [wall, role, hoursAgo, body, comments] of POSTS) {
    const wallId = wall === 'Company' ? refs.company_wall_id : (refs.department_walls[wall] as number);
    const at = ctx.now() - hoursAgo * HOUR_MS;
    const post = ctx.db.insert(POSTS_KIND.posts, {
      wall_id: wallId,
      body,
      author_id: author(role),
      media_ids: [],
      gallery: null,
      status: 'published',
      scheduled_at: null,
      origin: 'employee',
      created_at: at,
      updated_at: at,
    } satisfies Omit<PostRecord, 'id'>);
    for (const [commenter, minutes, text] of comments) {
      const cAt = at + minutes * 60_000;
      ctx.db.insert(POSTS_KIND.comments, {
        post_id: post.id,
        wall_id: wallId,
        body: text,
        author_id: author(commenter),
        created_at: cAt,
        updated_at: cAt,
      } satisfies Omit<CommentRecord, 'id'>);
    }
  }
}
