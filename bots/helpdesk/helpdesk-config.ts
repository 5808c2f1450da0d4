import { z } from 'intrabot';

const IdSchema = z.coerce.number().int().positive();

/**
 * A routing rule: when the response's answer to `field` equals `equals` (case does not matter),
 * the request goes to `assignee` by direct message instead of the triage wall.
 */
export const RouteSchema = z.object({
  field: z.string().min(1),
  equals: z.string(),
  assignee: IdSchema,
});
export type Route = z.output<typeof RouteSchema>;

/** A form the desk takes requests from; keep its id in bot.yaml's `events` filter too. */
export const DeskFormSchema = z.object({
  id: IdSchema,
  /** The first rule that matches routes the request; none: the triage wall. */
  routes: z.array(RouteSchema).default([]),
});
export type DeskForm = z.output<typeof DeskFormSchema>;

/** The helpdesk bot's `config` in bot.yaml. */
export const HelpdeskConfigSchema = z.object({
  /** The triage wall: its id, or its name. */
  wall: z.union([z.number().int().positive(), z.string().min(1)]),
  forms: z.array(DeskFormSchema).min(1),
});
export type HelpdeskConfig = z.output<typeof HelpdeskConfigSchema>;

/** The desk's settings for a form, or undefined for a form it does not serve. */
export function deskFormOf(config: HelpdeskConfig, formId: number | undefined): DeskForm | undefined {
  return formId === undefined ? undefined : config.forms.find((f) => f.id === formId);
}
