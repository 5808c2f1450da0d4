import type { z } from 'zod';
import { LearningContentCreateSchema, LearningContentSchema } from './learning-content';

/** A course. spec: not shown. */
export const CourseSchema = LearningContentSchema.extend({});
export type Course = z.infer<typeof CourseSchema>;

/** POST /courses body. spec: not shown. */
export const CourseCreateSchema = LearningContentCreateSchema.extend({});
export type CourseCreate = z.input<typeof CourseCreateSchema>;
