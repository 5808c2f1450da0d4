import { type BotContext, z } from 'intrabot';

/** What the bot reads of a form (spec: not shown; `type` and `fields` as the sandbox serves them). */
const FormReadSchema = z.looseObject({
  id: z.number().int(),
  title: z.string().optional(),
  type: z.string().optional(),
  is_anonymous: z.boolean().optional(),
  fields: z.array(z.looseObject({ id: z.string(), label: z.string() })).optional(),
});

export interface DeskFormInfo {
  title: string;
  anonymous: boolean;
  whistleblower: boolean;
  /** Field id to its label, for the answers in a post. */
  labels: Record<string, string>;
}

/** A form's title, labels and kind (`GET /forms/{id}`), kept in the store for an hour. */
export async function readDeskForm(ctx: BotContext<unknown>, formId: number): Promise<DeskFormInfo> {
  const key = `form:${formId}`;
  const known = await ctx.store.get<DeskFormInfo>(key);
  if (known) return known;
  const form = FormReadSchema.parse(await ctx.api.forms.get(formId));
  const info: DeskFormInfo = {
    title: form.title ?? `Form ${formId}`,
    // a form that hides its respondents in any way counts as anonymous
    anonymous: form.is_anonymous === true || (form.type !== undefined && form.type !== 'ordinary'),
    whistleblower: form.type === 'whistleblower',
    labels: Object.fromEntries((form.fields ?? []).map((f) => [f.id, f.label])),
  };
  await ctx.store.set(key, info, { ttlMs: 60 * 60_000 });
  return info;
}
