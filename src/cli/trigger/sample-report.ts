import type { TodoListStatsReport } from '../../webhooks/report';

interface DepartmentSample {
  id: number;
  name: string;
  completed: number;
  total: number;
  /** As the platform sends it: two decimals, 0 when there is nothing to complete. */
  percent: number;
}

/** Made-up departments: one ahead, one behind the usual thresholds, one without tasks. */
const DEPARTMENTS: readonly DepartmentSample[] = [
  { id: 1, name: 'Engineering', completed: 9, total: 12, percent: 75 },
  { id: 2, name: 'Sales', completed: 2, total: 8, percent: 25 },
  { id: 3, name: 'People', completed: 0, total: 0, percent: 0 },
];

function department(d: DepartmentSample): TodoListStatsReport['data']['departments'][number] {
  const template = {
    id: d.id * 10,
    title: 'First week',
    list_count: d.total === 0 ? 0 : 1,
    task_count: d.total,
    completed_count: d.completed,
    task_templates_count: d.total,
    completion_percentage: d.percent,
    todo_tasks: { data: [] },
  };
  return {
    id: d.id,
    name: d.name,
    list_count: template.list_count,
    total_tasks: d.total,
    completed_tasks: d.completed,
    completion_percentage: d.percent,
    todo_list_templates: { data: d.total === 0 ? [] : [template] },
  };
}

/**
 * A plausible payload of the `todo_list_stats` report (spec: Outgoing reports), which both report
 * names carry: made-up departments, one of them behind, so a digest bot has something to post.
 * `--payload` sends a real one.
 *
 * @example sampleReport().data.total_tasks // => 20
 */
export function sampleReport(): TodoListStatsReport {
  const departments = DEPARTMENTS.map(department);
  return {
    data: {
      total_lists: departments.reduce((n, d) => n + d.list_count, 0),
      total_tasks: departments.reduce((n, d) => n + d.total_tasks, 0),
      completed_tasks: departments.reduce((n, d) => n + d.completed_tasks, 0),
      departments,
    },
  };
}
