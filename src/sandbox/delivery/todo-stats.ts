import { z } from 'zod';
import type { SandboxContext } from '../context';
import { KIND, type GroupRecord, type UserRecord } from '../state/records';

/** The todo lists behind the `todo_list_stats` report (spec: Outgoing reports); the API cannot reach them. */
export const TODO_KIND = { templates: 'todo_list_templates', lists: 'todo_lists', tasks: 'todo_tasks' } as const;

export const TodoListTemplateRecordSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  task_templates: z.array(z.object({ id: z.number().int(), title: z.string() })),
  created_at: z.number(),
});
export type TodoListTemplateRecord = z.infer<typeof TodoListTemplateRecordSchema>;

/** One list made from a template for one employee, counted in a department. */
export const TodoListRecordSchema = z.object({
  id: z.number().int(),
  template_id: z.number().int(),
  department_id: z.number().int(),
  user_id: z.number().int(),
  created_at: z.number(),
});
export type TodoListRecord = z.infer<typeof TodoListRecordSchema>;

export const TodoTaskRecordSchema = z.object({
  id: z.number().int(),
  list_id: z.number().int(),
  task_template_id: z.number().int(),
  checked_by: z.number().int().nullable(),
  checked_at: z.number().nullable(),
});
export type TodoTaskRecord = z.infer<typeof TodoTaskRecordSchema>;

/** A percentage with two decimals; 0 when there is nothing to complete. */
export function percentage(done: number, total: number): number {
  return total === 0 ? 0 : Math.round((done / total) * 10_000) / 100;
}

interface Snapshot {
  ctx: SandboxContext;
  cutoff: number;
  tasksByList: Map<number, TodoTaskRecord[]>;
}

const isDone = (task: TodoTaskRecord, cutoff: number): boolean => task.checked_at !== null && task.checked_at < cutoff;

function taskStats(s: Snapshot, title: { id: number; title: string }, tasks: TodoTaskRecord[]): Record<string, unknown> {
  const done = tasks.filter((t) => isDone(t, s.cutoff));
  const pct = percentage(done.length, tasks.length);
  return {
    id: title.id,
    title: title.title,
    task_count: tasks.length,
    completed_count: done.length,
    completion_percentage: pct,
    tasks: {
      data: done.map((t) => ({
        id: t.id,
        user: { name: s.ctx.db.get<UserRecord & { id: number }>(KIND.users, t.checked_by ?? 0)?.name ?? 'Unknown' },
        checked_at: s.ctx.iso(t.checked_at ?? 0),
      })),
    },
    meta: { total_tasks: tasks.length, completed_tasks: done.length, completion_percentage: pct },
  };
}

function templateStats(s: Snapshot, template: TodoListTemplateRecord, lists: TodoListRecord[]): Record<string, unknown> {
  const tasks = lists.flatMap((l) => s.tasksByList.get(l.id) ?? []);
  const todoTasks = template.task_templates.map((tt) =>
    taskStats(
      s,
      tt,
      tasks.filter((t) => t.task_template_id === tt.id),
    ),
  );
  const done = tasks.filter((t) => isDone(t, s.cutoff)).length;
  return {
    id: template.id,
    title: template.title,
    list_count: lists.length,
    task_count: tasks.length,
    completed_count: done,
    task_templates_count: template.task_templates.length,
    completion_percentage: percentage(done, tasks.length),
    todo_tasks: { data: todoTasks },
  };
}

function departmentStats(s: Snapshot, department: GroupRecord, lists: TodoListRecord[]): Record<string, unknown> & { total: number; done: number } {
  const templateIds = [...new Set(lists.map((l) => l.template_id))].sort((a, b) => a - b);
  const templates = templateIds.flatMap((id) => s.ctx.db.get<TodoListTemplateRecord>(TODO_KIND.templates, id) ?? []);
  const tasks = lists.flatMap((l) => s.tasksByList.get(l.id) ?? []);
  const done = tasks.filter((t) => isDone(t, s.cutoff)).length;
  return {
    id: department.id,
    name: department.name,
    list_count: lists.length,
    total_tasks: tasks.length,
    completed_tasks: done,
    completion_percentage: percentage(done, tasks.length),
    todo_list_templates: {
      data: templates.map((t) =>
        templateStats(
          s,
          t,
          lists.filter((l) => l.template_id === t.id),
        ),
      ),
    },
    total: tasks.length,
    done,
  };
}

/**
 * The `todo_list_stats` report as of `cutoff` (spec: Outgoing reports, payload `data`): lists that
 * existed then, and tasks checked before it, by department. A report sent at 07:00 uses midnight of
 * that day, so it carries yesterday's data, as does the admin's test button.
 */
export function todoListStats(ctx: SandboxContext, cutoff: number): { data: Record<string, unknown> } {
  const lists = ctx.db.filter<TodoListRecord>(TODO_KIND.lists, (l) => l.created_at < cutoff);
  const tasksByList = new Map<number, TodoTaskRecord[]>();
  for (const task of ctx.db.all<TodoTaskRecord>(TODO_KIND.tasks)) {
    const bucket = tasksByList.get(task.list_id) ?? [];
    bucket.push(task);
    tasksByList.set(task.list_id, bucket);
  }
  const snapshot: Snapshot = { ctx, cutoff, tasksByList };
  const departments = ctx.db
    .filter<GroupRecord>(KIND.groups, (g) => g.type === 'department')
    .map((d) =>
      departmentStats(
        snapshot,
        d,
        lists.filter((l) => l.department_id === d.id),
      ),
    );
  return {
    data: {
      total_lists: lists.length,
      total_tasks: departments.reduce((sum, d) => sum + d.total, 0),
      completed_tasks: departments.reduce((sum, d) => sum + d.done, 0),
      departments: departments.map(({ total: _total, done: _done, ...rest }) => rest),
    },
  };
}
