import { z } from 'zod';
import type { SandboxDb } from '../../state/sandbox-db';

/**
 * Completable content (spec: Trigger configuration): handbooks, courses and journeys. Shared with
 * the achievements module, which links completion achievements to them and awards on completion.
 * spec: not shown — our shapes; `is_published` and the journey `type` decide linkability.
 */
export const LEARNING_KIND = {
  handbooks: 'handbooks',
  courses: 'courses',
  journeys: 'journeys',
  certificates: 'certificates',
  certificateTypes: 'certificate_types',
} as const;

export const LearningRecordSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  is_published: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type LearningRecord = z.infer<typeof LearningRecordSchema>;

export const JourneyTypeSchema = z.enum(['onboarding', 'custom', 'offboarding']);
export const JourneyRecordSchema = LearningRecordSchema.extend({ type: JourneyTypeSchema });
export type JourneyRecord = z.infer<typeof JourneyRecordSchema>;

export type CompletableType = 'handbook' | 'course' | 'journey';

const KIND_OF: Record<CompletableType, string> = { handbook: LEARNING_KIND.handbooks, course: LEARNING_KIND.courses, journey: LEARNING_KIND.journeys };

export function findCompletable(db: SandboxDb, type: CompletableType, id: number): LearningRecord | JourneyRecord | undefined {
  return db.get<LearningRecord | JourneyRecord>(KIND_OF[type], id);
}

/**
 * spec: Trigger configuration — linkable: a published handbook or course, or a published onboarding
 * or custom journey; offboarding journeys cannot be linked.
 */
export function isLinkable(type: CompletableType, record: LearningRecord | JourneyRecord | undefined): boolean {
  if (!record?.is_published) return false;
  return type !== 'journey' || ('type' in record && record.type !== 'offboarding');
}
