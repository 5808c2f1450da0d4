import type { SandboxContext } from '../context';
import { TODO_KIND, type TodoListTemplateRecord } from '../delivery/todo-stats';
import { KIND, type GroupRecord, type UserRecord } from '../state/records';

const HOUR = 3_600_000;

const TEMPLATES: readonly { title: string; tasks: readonly string[] }[] = [
  { title: 'Onboarding checklist', tasks: ['Sign the employment contract', 'Collect laptop and badge', 'Meet your buddy', 'Complete the safety briefing'] },
  { title: 'Weekly workplace check', tasks: ['Check first-aid kit', 'Test emergency lights', 'Tidy shared storage'] },
  { title: 'Quarterly review preparation', tasks: ['Update team goals', 'Collect peer feedback', 'Book the review meeting'] },
];

/**
 * Todo lists for the `todo_list_stats` report (spec: Outgoing reports): each department runs two of
 * the templates for a few of its members; tasks are checked by department members over the last
 * days (some today, which a report with yesterday's data leaves out). Deterministic for a seed.
 */
export function seedTodos(ctx: SandboxContext): void {
  const now = ctx.now();
  const templates = TEMPLATES.map((t, ti) =>
    ctx.db.insert(TODO_KIND.templates, {
      title: t.title,
      task_templates: t.tasks.map((title, i) => ({ id: (ti + 1) * 100 + i + 1, title })),
      created_at: now - 60 * 24 * HOUR,
    } satisfies Omit<TodoListTemplateRecord, 'id'>),
  );
  const departments = ctx.db.filter<GroupRecord>(KIND.groups, (g) => g.type === 'department');
  departments.forEach((department, di) => {
    const members = ctx.db.filter<UserRecord & { id: number }>(
      KIND.users,
      (u) => u.kind === 'default' && u.status === 'registered' && u.memberships.some((m) => m.group_id === department.id),
    );
    if (members.length === 0) return;
    for (const [k, template] of [templates[di % templates.length], templates[(di + 1) % templates.length]].entries()) {
      if (!template) continue;
      seedLists(ctx, { template, departmentId: department.id, members, lists: 2 + ((di + k) % 3), salt: di * 7 + k });
    }
  });
}

interface ListSeed {
  template: TodoListTemplateRecord;
  departmentId: number;
  members: (UserRecord & { id: number })[];
  lists: number;
  salt: number;
}

function seedLists(ctx: SandboxContext, s: ListSeed): void {
  const now = ctx.now();
  for (let l = 0; l < s.lists; l++) {
    const owner = s.members[(s.salt + l) % s.members.length];
    if (!owner) continue;
    const list = ctx.db.insert(TODO_KIND.lists, {
      template_id: s.template.id,
      department_id: s.departmentId,
      user_id: owner.id,
      created_at: now - (10 + l) * 24 * HOUR,
    });
    s.template.task_templates.forEach((task, t) => {
      const n = s.salt + l * 2 + t;
      // about two in three tasks are done; a few of them today, which yesterday's data does not count
      const checked = n % 3 !== 0;
      const checker = s.members[n % s.members.length] ?? owner;
      ctx.db.insert(TODO_KIND.tasks, {
        list_id: list.id,
        task_template_id: task.id,
        checked_by: checked ? checker.id : null,
        checked_at: checked ? now - ((n % 5) * 19 + 1) * HOUR : null,
      });
    });
  }
}
