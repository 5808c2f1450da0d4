import { describe, expect, it } from 'vitest';
import { TodoListStatsReportSchema } from '../../src/webhooks/report';

const report = {
  data: {
    total_lists: 2,
    total_tasks: 10,
    completed_tasks: 6,
    departments: [
      {
        id: 3,
        name: 'Engineering',
        list_count: 2,
        total_tasks: 10,
        completed_tasks: 6,
        completion_percentage: 60,
        todo_list_templates: {
          data: [
            {
              id: 1,
              title: 'First week',
              list_count: 2,
              task_count: 10,
              completed_count: 6,
              task_templates_count: 5,
              completion_percentage: 60,
              todo_tasks: {
                data: [
                  {
                    id: 8,
                    title: 'Get a laptop',
                    task_count: 2,
                    completed_count: 1,
                    completion_percentage: 50,
                    tasks: { data: [{ id: 81, user: { name: 'Ada Lovelace' }, checked_at: '2026-11-21T09:12:00+01:00' }] },
                    meta: { total_tasks: 2, completed_tasks: 1, completion_percentage: 50 },
                  },
                ],
              },
            },
          ],
        },
      },
    ],
  },
};

describe('TodoListStatsReportSchema (spec: Outgoing reports)', () => {
  it('parses the nested { data: [...] } lists of a daily report', () => {
    const parsed = TodoListStatsReportSchema.parse(report);
    const task = parsed.data.departments[0]?.todo_list_templates.data[0]?.todo_tasks.data[0]?.tasks.data[0];
    expect(task?.user.name).toBe('Ada Lovelace');
  });

  it('keeps unknown fields at every level', () => {
    const withExtra = structuredClone(report) as typeof report & { data: { period?: string } };
    withExtra.data.period = 'daily';
    expect(TodoListStatsReportSchema.parse(withExtra).data).toHaveProperty('period', 'daily');
  });

  it('rejects a department list that is not wrapped in { data }', () => {
    const bad = structuredClone(report) as unknown as { data: { departments: [{ todo_list_templates: unknown }] } };
    bad.data.departments[0].todo_list_templates = [];
    const result = TodoListStatsReportSchema.safeParse(bad);
    expect(result.error?.issues[0]?.path).toEqual(['data', 'departments', 0, 'todo_list_templates']);
  });
});
