import type { ReportPayloadOf } from 'intrabot';

type TodoReport = ReportPayloadOf<'todoliststats.daily'>;

/** One department's line in the digest. */
export interface DepartmentLine {
  name: string;
  /** Whole percent, as the platform computed it (spec: Outgoing reports, `completion_percentage`). */
  percent: number;
  completed: number;
  total: number;
  behind: boolean;
}

export interface TodoSummary {
  percent: number;
  completed: number;
  total: number;
  /** Best first; departments without tasks are left out (nothing to complete). */
  departments: DepartmentLine[];
  behind: DepartmentLine[];
}

/**
 * The digest's numbers: each department's completion, best first, and those under `behindBelow`
 * percent marked as behind.
 *
 * @example summarize(report.payload, 70).behind.map((d) => d.name) // => ['Sales']
 */
export function summarize(report: TodoReport, behindBelow: number): TodoSummary {
  const { data } = report;
  const departments = data.departments
    .filter((d) => d.total_tasks > 0)
    .map((d) => ({
      name: d.name,
      percent: Math.round(d.completion_percentage),
      completed: d.completed_tasks,
      total: d.total_tasks,
      behind: d.completion_percentage < behindBelow,
    }))
    .sort((a, b) => b.percent - a.percent || a.name.localeCompare(b.name));
  return {
    percent: data.total_tasks === 0 ? 0 : Math.round((data.completed_tasks / data.total_tasks) * 100),
    completed: data.completed_tasks,
    total: data.total_tasks,
    departments,
    behind: departments.filter((d) => d.behind),
  };
}
