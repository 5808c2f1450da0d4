import type { z } from 'zod';

// spec: Announcements / Events / Calendar entries — `body` is required on create unless
// `article_id` is given, and the two are mutually exclusive (Errors: "`body` together with `article_id`").

interface ContentFields {
  body?: string | null | undefined;
  article_id?: number | null | undefined;
}

/** Refuses `body` together with `article_id`, naming `article_id`. */
export function refuseBodyWithArticle(value: ContentFields, ctx: z.RefinementCtx): void {
  if (value.body != null && value.article_id != null) {
    ctx.addIssue({ code: 'custom', path: ['article_id'], message: 'body and article_id are mutually exclusive: send one of them' });
  }
}

/** On create: one of `body` and `article_id` is required, never both. */
export function requireBodyXorArticle(value: ContentFields, ctx: z.RefinementCtx): void {
  if (value.body == null && value.article_id == null) {
    ctx.addIssue({ code: 'custom', path: ['body'], message: 'body is required unless article_id is given' });
  }
  refuseBodyWithArticle(value, ctx);
}
