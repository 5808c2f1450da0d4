import { z } from 'zod';
import { DatetimeSchema } from './payload-parts';
import type { ReportName } from './events';

/** The platform nests lists inside reports as `{ data: [...] }` (spec: Outgoing reports). */
function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item) });
}

const TaskSchema = z.looseObject({
  id: z.int(),
  user: z.looseObject({ name: z.string() }),
  checked_at: DatetimeSchema.nullable(),
});

const TodoTaskSchema = z.looseObject({
  id: z.int(),
  title: z.string(),
  task_count: z.int(),
  completed_count: z.int(),
  completion_percentage: z.number(),
  tasks: listOf(TaskSchema),
  meta: z.looseObject({ total_tasks: z.int(), completed_tasks: z.int(), completion_percentage: z.number() }),
});

const TodoListTemplateSchema = z.looseObject({
  id: z.int(),
  title: z.string(),
  list_count: z.int(),
  task_count: z.int(),
  completed_count: z.int(),
  task_templates_count: z.int(),
  completion_percentage: z.number(),
  todo_tasks: listOf(TodoTaskSchema),
});

const DepartmentStatsSchema = z.looseObject({
  id: z.int(),
  name: z.string(),
  list_count: z.int(),
  total_tasks: z.int(),
  completed_tasks: z.int(),
  completion_percentage: z.number(),
  todo_list_templates: listOf(TodoListTemplateSchema),
});

/**
 * The `todo_list_stats` report, daily at 07:00 CET (spec: Events, Outgoing reports): the
 * delivery's `payload` is `{ data: { total_lists, total_tasks, completed_tasks, departments } }`.
 */
export const TodoListStatsReportSchema = z.looseObject({
  data: z.looseObject({
    total_lists: z.int(),
    total_tasks: z.int(),
    completed_tasks: z.int(),
    departments: z.array(DepartmentStatsSchema),
  }),
});

export type TodoListStatsReport = z.infer<typeof TodoListStatsReportSchema>;

/** The report secret `sandbox.env` gives the example bot: published, so connected mode refuses it. */
export const SANDBOX_REPORT_SECRET = 'sandbox-report-secret';

/** The payload schema of every report, keyed by the short report name. */
export const REPORT_SCHEMAS = {
  'todoliststats.daily': TodoListStatsReportSchema,
  // the same report type on the weekly schedule (spec: Outgoing reports, "Schedules")
  'todoliststats.weekly': TodoListStatsReportSchema,
} as const satisfies Record<ReportName, z.ZodType>;

export type ReportPayloadOf<R extends ReportName> = z.infer<(typeof REPORT_SCHEMAS)[R]>;
