import type { IntrabotApi } from '../../api/create-api-client';
import { ApiValidationError } from '../../api/errors';
import { skip, type ConformanceCheck } from '../check';
import { expectEqual, expectRejects, expectThat, show } from '../expect';
import { UNKNOWN_ID, orSkipWhenForbidden } from './support';

/**
 * Achievements and awards cannot be deleted through the API (spec: Achievement publication state),
 * so these checks reuse their own achievements by title and award on fixed, back-dated days: a
 * second run adds nothing.
 */
const DRAFT_TITLE = 'intrabot conformance draft';
const BADGE_TITLE = 'intrabot conformance badge';
const SAME_DAY = '2001-01-01';
const OTHER_DAY = '2001-01-02';

async function findOrCreate(api: IntrabotApi, title: string, published: boolean): Promise<number> {
  for await (const achievement of api.achievements.all({ is_published: published, type: 'custom' })) {
    if (achievement.title === title) return achievement.id;
  }
  const created = await api.achievements.create({ type: 'custom', title, description: 'Used by intrabot conformance checks.', is_published: published });
  return created.id;
}

async function awardee(api: IntrabotApi): Promise<number> {
  const users = await api.users.list({ per_page: 50 });
  const user = users.data.find((u) => u.type === 'default');
  if (!user) skip('the host lists no regular employee to award');
  return user.id;
}

async function awardCount(api: IntrabotApi, id: number): Promise<number> {
  const page = await api.achievements.awards(id, { per_page: 1 });
  return Number(page.meta?.total);
}

const draftRefused: ConformanceCheck = {
  id: 'awards.draft',
  title: 'awarding a draft achievement is a 422',
  section: 'Award rules 1',
  readOnly: false,
  async run(api) {
    const id = await orSkipWhenForbidden(findOrCreate(api, DRAFT_TITLE, false), 'achievements');
    const userId = await awardee(api);
    await expectRejects(api.achievements.award(id, [{ user_id: userId, awarded_at: SAME_DAY }]), ApiValidationError, `awarding draft achievement ${id}`);
    expectEqual(await awardCount(api, id), 0, `awards of draft achievement ${id}`);
  },
};

const identicalRow: ConformanceCheck = {
  id: 'awards.identical-row',
  title: 'an identical award row returns the existing award and creates no duplicate',
  section: 'Award rules 3, 5',
  readOnly: false,
  async run(api) {
    const id = await orSkipWhenForbidden(findOrCreate(api, BADGE_TITLE, true), 'achievements');
    const userId = await awardee(api);
    const [first] = await api.achievements.award(id, [{ user_id: userId, awarded_at: SAME_DAY }]);
    expectThat(first !== undefined, 'the award answer holds no award');
    const count = await awardCount(api, id);
    const [again] = await api.achievements.award(id, [{ user_id: userId, awarded_at: SAME_DAY }]);
    expectEqual(again?.id, first.id, 'id of the award answered for an identical row');
    expectEqual(await awardCount(api, id), count, `awards of achievement ${id} after the identical row`);
    expectEqual(first.is_manually_added, true, 'is_manually_added of an API award');
    // spec: Award — awarded_at is the day's midnight in the server's timezone, with its offset
    expectThat(/^2001-01-01T00:00:00(Z|[+-]\d\d:\d\d)$/.test(first.awarded_at), `awarded_at of a row for ${SAME_DAY} is ${show(first.awarded_at)}`);
    const by = first.assigned_by?.type;
    expectThat(by === 'customer' || by === 'system', `assigned_by of an API award has type ${show(by)}, expected the company user`);
  },
};

const rowErrors: ConformanceCheck = {
  id: 'awards.row-errors',
  title: 'an invalid award row is a 422 naming awards.<index>.<field>, and nobody is awarded',
  section: 'Award rules 2; Errors (422)',
  readOnly: false,
  async run(api) {
    const id = await orSkipWhenForbidden(findOrCreate(api, BADGE_TITLE, true), 'achievements');
    const userId = await awardee(api);
    const before = await awardCount(api, id);
    const rows = [
      { user_id: userId, awarded_at: OTHER_DAY },
      { user_id: UNKNOWN_ID, awarded_at: OTHER_DAY },
    ];
    const error = await expectRejects(api.achievements.award(id, rows), ApiValidationError, 'a batch whose second row names no user');
    expectThat(error.platformMessage.includes('awards.1.user_id'), `the 422 message does not name awards.1.user_id: ${error.platformMessage}`);
    expectEqual(await awardCount(api, id), before, 'awards after the refused batch (all or nothing)');
  },
};

const defaultsAndType: ConformanceCheck = {
  id: 'achievements.defaults-and-type',
  title: 'a custom achievement gets the 🤩 emoji and personal visibility by default, and its type never changes',
  section: 'Achievement (defaults by type); Achievement publication state (type immutable)',
  readOnly: false,
  async run(api) {
    const id = await orSkipWhenForbidden(findOrCreate(api, DRAFT_TITLE, false), 'achievements');
    const achievement = await api.achievements.get(id);
    expectEqual(achievement.emoji, '🤩', 'default emoji of a custom achievement');
    expectEqual(achievement.visibility, 'personal', 'default visibility of a custom achievement');
    await expectRejects(api.achievements.patch(id, { type: 'completion' }), ApiValidationError, 'PATCH of the type of a custom achievement');
    expectEqual((await api.achievements.patch(id, { type: 'custom' })).type, 'custom', 'type after sending the current type');
  },
};

export const awardChecks: ConformanceCheck[] = [defaultsAndType, draftRefused, identicalRow, rowErrors];
