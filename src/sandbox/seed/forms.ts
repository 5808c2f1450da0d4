import type { SandboxContext } from '../context';
import { FORM_KIND, type FormRecord, type FormResponseRecord } from '../routes/forms/form-records';
import { KIND, type UserRecord } from '../state/records';
import { directoryRefs } from './directory-refs';

const DAY = 86_400_000;

const FORMS: readonly Omit<FormRecord, 'id' | 'created_at' | 'updated_at'>[] = [
  {
    title: 'IT equipment request',
    description: 'Ask for a laptop, monitor or phone.',
    type: 'ordinary',
    fields: [
      { id: 'item', label: 'What do you need?', type: 'choice' },
      { id: 'reason', label: 'Why?', type: 'text' },
    ],
  },
  {
    title: 'Anonymous pulse survey',
    description: 'How are you doing this month? Answers are anonymous.',
    type: 'anonymous',
    fields: [
      { id: 'mood', label: 'Mood (1-5)', type: 'number' },
      { id: 'comment', label: 'Anything to share?', type: 'text' },
    ],
  },
  {
    title: 'Whistleblower channel',
    description: 'Report misconduct confidentially.',
    type: 'whistleblower',
    fields: [{ id: 'report', label: 'What happened?', type: 'text' }],
  },
];

const ANSWERS: readonly Record<string, unknown>[][] = [
  [
    { item: 'Monitor', reason: 'Second screen for design work' },
    { item: 'Laptop', reason: 'Current one is five years old' },
    { item: 'Phone', reason: 'On-call duty' },
  ],
  [
    { mood: 4, comment: 'Good month' },
    { mood: 2, comment: 'Too many meetings' },
    { mood: 5, comment: '' },
  ],
  [{ report: 'Expense irregularities in a team budget' }],
];

/** The demo forms (one ordinary, one anonymous, one whistleblower) with a few responses each. */
export function seedForms(ctx: SandboxContext): void {
  const now = ctx.now();
  const respondents =
    directoryRefs(ctx)?.employee_ids ??
    ctx.db.filter<UserRecord & { id: number }>(KIND.users, (u) => u.kind === 'default' && u.status === 'registered').map((u) => u.id);
  if (respondents.length === 0) return;
  FORMS.forEach((definition, f) => {
    const form = ctx.db.insert(FORM_KIND.forms, { ...definition, created_at: now - 90 * DAY, updated_at: now - 90 * DAY });
    (ANSWERS[f] ?? []).forEach((answers, r) => {
      const at = now - (20 - f * 3 - r * 2) * DAY;
      ctx.db.insert(FORM_KIND.responses, {
        form_id: form.id,
        user_id: respondents[(f * 3 + r) % respondents.length] ?? respondents[0]!,
        answers,
        status: r === 0 ? 'resolved' : r === 1 ? 'in_progress' : 'new',
        deadline_at: r === 1 ? now + 7 * DAY : null,
        hidden: false,
        archived: false,
        assignee_ids: [],
        deleted_at: null,
        created_at: at,
        updated_at: at,
      } satisfies Omit<FormResponseRecord, 'id'>);
    });
  });
}
