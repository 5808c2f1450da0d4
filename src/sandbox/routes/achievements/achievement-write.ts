import type { z } from 'zod';
import {
  AchievementCreateSchema,
  AchievementUpdateSchema,
  CompletionTriggerConfigSchema,
  EmploymentTriggerConfigSchema,
  type AchievementType,
} from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { validate } from '../../http/validate';
import { findCompletable, isLinkable } from '../content/learning-records';
import { awardQualifiedEmployees } from './automatic';
import { activeLocales, checkTranslations } from './locales';
import { ACHIEVEMENT_KIND, type AchievementRecord, type TriggerConfigRecord } from './records';

/** spec: Achievement — default emoji and visibility by type. */
const DEFAULT_EMOJI: Record<AchievementType, string> = { employee_of_the_month: '👑', completion: '🏆', employment: '⭐', custom: '🤩' };
const DEFAULT_VISIBILITY: Record<AchievementType, 'public' | 'personal'> = {
  employee_of_the_month: 'public',
  employment: 'public',
  completion: 'personal',
  custom: 'personal',
};
const EMPLOYEE_OF_THE_MONTH = 'Employee of the month';

const TRIGGER_SCHEMA: Partial<Record<AchievementType, z.ZodType<TriggerConfigRecord>>> = {
  completion: CompletionTriggerConfigSchema,
  employment: EmploymentTriggerConfigSchema,
};

function isAutomatic(type: AchievementType): boolean {
  return TRIGGER_SCHEMA[type] !== undefined;
}

/**
 * spec: Trigger configuration — the config must fit the type and be complete, and every linked id
 * must be linkable (published handbook or course, published onboarding or custom journey).
 */
function checkTrigger(ctx: SandboxContext, type: AchievementType, config: unknown): TriggerConfigRecord {
  const schema = TRIGGER_SCHEMA[type];
  if (!schema) throw validationError('trigger_config', `is only allowed for completion and employment achievements, not ${type}`);
  const parsed = schema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationError(['trigger_config', ...(issue?.path ?? []).map(String)].join('.'), `is incomplete or invalid: ${issue?.message ?? 'unknown shape'}`);
  }
  const trigger = parsed.data;
  if ('completable_ids' in trigger) {
    trigger.completable_ids.forEach((id, index) => {
      if (!isLinkable(trigger.completable_type, findCompletable(ctx.db, trigger.completable_type, id))) {
        throw validationError(
          `trigger_config.completable_ids.${index}`,
          `${trigger.completable_type} ${id} cannot be linked: it must be a published handbook or course, or a published onboarding or custom journey`,
        );
      }
    });
  }
  return trigger;
}

/** spec: Achievement publication state — publishing completion or employment needs a complete config. */
function checkPublishable(type: AchievementType, isPublished: boolean, trigger: TriggerConfigRecord | null): void {
  if (isPublished && isAutomatic(type) && trigger === null) {
    throw validationError('trigger_config', `a published ${type} achievement needs a complete trigger_config`);
  }
}

function withDefault<T>(texts: Record<string, T> | undefined, locale: string, value: T | undefined): Record<string, T> {
  const out = { ...(texts ?? {}) };
  if (value !== undefined) out[locale] = value;
  return out;
}

/** Creates an achievement; `announce: false` (the seed) awards qualified employees without firing events. */
export function createAchievement(ctx: SandboxContext, body: unknown, announce = true): AchievementRecord {
  const fields = validate(AchievementCreateSchema, body);
  const locales = activeLocales(ctx);
  checkTranslations(locales, fields.translations);
  const trigger = fields.trigger_config == null ? null : checkTrigger(ctx, fields.type, fields.trigger_config);
  const isPublished = fields.is_published ?? false;
  checkPublishable(fields.type, isPublished, trigger);
  const titles = withDefault(fields.translations?.title, locales.default, fields.title);
  // spec: Achievements, create body — employee of the month without a title is so named in every active language
  if (fields.title === undefined && fields.type === 'employee_of_the_month') {
    for (const locale of Object.keys(locales.locales)) titles[locale] ??= EMPLOYEE_OF_THE_MONTH;
  }
  const now = ctx.now();
  const record = ctx.db.insert(ACHIEVEMENT_KIND.achievements, {
    type: fields.type,
    titles,
    descriptions: withDefault(fields.translations?.description, locales.default, fields.description),
    emoji: fields.emoji ?? DEFAULT_EMOJI[fields.type],
    visibility: fields.visibility ?? DEFAULT_VISIBILITY[fields.type],
    trigger_config: trigger,
    is_published: isPublished,
    published_at: isPublished ? now : null,
    created_at: now,
    updated_at: now,
  }) as AchievementRecord;
  if (isPublished) awardQualifiedEmployees(ctx, record, announce);
  return record;
}

/** PATCH and PUT alike (spec: Achievements, update): only sent fields change; everything is checked first. */
export function updateAchievement(ctx: SandboxContext, current: AchievementRecord, body: unknown): AchievementRecord {
  const fields = validate(AchievementUpdateSchema, body);
  if (fields.type !== undefined && fields.type !== current.type) throw validationError('type', 'the type of an achievement cannot change');
  const locales = activeLocales(ctx);
  checkTranslations(locales, fields.translations);
  let trigger = current.trigger_config;
  if (fields.trigger_config !== undefined) trigger = fields.trigger_config === null ? null : checkTrigger(ctx, current.type, fields.trigger_config);
  const isPublished = fields.is_published ?? current.is_published;
  // covers publishing without a config and clearing or incompleting the config of a published one
  checkPublishable(current.type, isPublished, trigger);
  const now = ctx.now();
  const patch: Partial<AchievementRecord> = {
    titles: withDefault({ ...current.titles, ...fields.translations?.title }, locales.default, fields.title),
    descriptions: withDefault({ ...current.descriptions, ...fields.translations?.description }, locales.default, fields.description),
    trigger_config: trigger,
    is_published: isPublished,
    published_at: isPublished ? (current.published_at ?? now) : null,
    updated_at: now,
  };
  if (fields.emoji !== undefined) patch.emoji = fields.emoji;
  if (fields.visibility !== undefined) patch.visibility = fields.visibility;
  const next = ctx.db.update<AchievementRecord>(ACHIEVEMENT_KIND.achievements, current.id, patch) as AchievementRecord;
  if (isPublished && !current.is_published) awardQualifiedEmployees(ctx, next);
  return next;
}
