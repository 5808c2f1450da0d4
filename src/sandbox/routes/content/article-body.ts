import type { SandboxContext } from '../../context';
import { validationError } from '../../http/sandbox-error';
import { CONTENT_KIND, type ArticleRecord } from './records';

/**
 * The `body` versus `article_id` rules shared by announcements, events and calendar entries
 * (spec: Announcements; Errors: "`body` where it would replace rich article content").
 */

/** An article made from a `body` sent with content (not rich content: a later `body` may replace it). */
export function articleFromBody(ctx: SandboxContext, body: string, title: string | null): ArticleRecord {
  const now = ctx.now();
  return ctx.db.insert(CONTENT_KIND.articles, { title, body, origin: 'body' as const, created_at: now, updated_at: now });
}

/** An article with no text yet (`body` null), for content that has an article but no description (calendar entries). */
export function emptyArticle(ctx: SandboxContext, title: string | null): ArticleRecord {
  const now = ctx.now();
  return ctx.db.insert(CONTENT_KIND.articles, { title, body: null, origin: 'body' as const, created_at: now, updated_at: now });
}

/** A linked `article_id` must exist; answers 422 naming the field otherwise. */
export function requireArticle(ctx: SandboxContext, id: number): ArticleRecord {
  const article = ctx.db.get<ArticleRecord>(CONTENT_KIND.articles, id);
  if (!article) throw validationError('article_id', `article ${id} does not exist`);
  return article;
}

/** The article id for new content: the linked article, or one made from `body`. */
export function articleForCreate(
  ctx: SandboxContext,
  fields: { body?: string | null | undefined; article_id?: number | undefined },
  title: string,
): number | null {
  if (fields.article_id !== undefined) return requireArticle(ctx, fields.article_id).id;
  if (fields.body == null) return null;
  return articleFromBody(ctx, fields.body, title).id;
}

/** Checks an update's `body`/`article_id` before anything changes; 422 when `body` would replace rich content. */
export function checkArticleUpdate(
  ctx: SandboxContext,
  currentArticleId: number | null,
  fields: { body?: string | null | undefined; article_id?: number | undefined },
): void {
  if (fields.article_id !== undefined) requireArticle(ctx, fields.article_id);
  if (fields.body == null || currentArticleId === null || fields.article_id !== undefined) return;
  const current = ctx.db.get<ArticleRecord>(CONTENT_KIND.articles, currentArticleId);
  if (current?.origin === 'articles') {
    throw validationError('body', 'this content uses rich article content built through the articles endpoints; body would replace it');
  }
}

/** Applies a checked update: relinks, rewrites a body-made article, or makes one; returns the article id. */
export function applyArticleUpdate(
  ctx: SandboxContext,
  currentArticleId: number | null,
  fields: { body?: string | null | undefined; article_id?: number | undefined },
  title: string,
): number | null {
  if (fields.article_id !== undefined) return fields.article_id;
  if (fields.body == null) return currentArticleId;
  if (currentArticleId !== null && ctx.db.get(CONTENT_KIND.articles, currentArticleId)) {
    ctx.db.update<ArticleRecord>(CONTENT_KIND.articles, currentArticleId, { body: fields.body, updated_at: ctx.now() });
    return currentArticleId;
  }
  return articleFromBody(ctx, fields.body, title).id;
}

/** The text of an article, or null when the content has none. */
export function articleBody(ctx: SandboxContext, id: number | null): string | null {
  if (id === null) return null;
  return ctx.db.get<ArticleRecord>(CONTENT_KIND.articles, id)?.body ?? null;
}

export function serializeArticle(ctx: SandboxContext, article: ArticleRecord): Record<string, unknown> {
  // spec: not shown — `is_rich_content` is ours; it tells a bot whether a later `body` would be refused
  return {
    id: article.id,
    title: article.title,
    body: article.body,
    is_rich_content: article.origin === 'articles',
    created_at: ctx.iso(article.created_at),
    updated_at: ctx.iso(article.updated_at),
  };
}
