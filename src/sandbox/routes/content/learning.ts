import { z } from 'zod';
import { ArticleCreateSchema, CertificateCreateSchema, CertificateTypeCreateSchema, LearningContentCreateSchema } from '../../../api/schemas';
import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound, validationError } from '../../http/sandbox-error';
import { idParam, validate } from '../../http/validate';
import { KIND } from '../../state/records';
import { serializeArticle } from './article-body';
import { LEARNING_KIND, type JourneyRecord, type LearningRecord } from './learning-records';
import { CONTENT_KIND, type ArticleRecord } from './records';

type Row = { id: number; created_at: number };

/** GET list + POST create of one simple resource. */
function listAndCreate<R extends Row>(
  router: ApiRouter,
  ctx: SandboxContext,
  spec: { path: string; kind: string; read: string; write: string | null; serialize: (row: R) => unknown; create: (body: unknown) => R },
): void {
  router.route('GET', spec.path, spec.read, (request) => {
    const page = readPageQuery(request.query as Record<string, unknown>, ctx.settings.timezone);
    return paginate(request, ctx.db.all<R & { id: number }>(spec.kind), page, spec.serialize);
  });
  const write = spec.write;
  if (write) router.route('POST', spec.path, write, (request) => ({ data: spec.serialize(spec.create(request.body)) }), { status: 201 });
}

export function serializeLearning(ctx: SandboxContext, row: LearningRecord | JourneyRecord): Record<string, unknown> {
  // spec: not shown — handbooks, courses and journeys share this shape; journeys add `type`
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    ...('type' in row ? { type: row.type } : {}),
    is_published: row.is_published,
    created_at: ctx.iso(row.created_at),
    updated_at: ctx.iso(row.updated_at),
  };
}

export function insertLearning(
  ctx: SandboxContext,
  kind: string,
  fields: { title: string; description?: string | null | undefined; is_published?: boolean | undefined; type?: string },
): LearningRecord {
  const now = ctx.now();
  // spec: not shown — created published unless `is_published: false` is sent
  const journey = fields.type === undefined ? {} : { type: fields.type };
  return ctx.db.insert(kind, {
    title: fields.title,
    description: fields.description ?? null,
    ...journey,
    is_published: fields.is_published ?? true,
    created_at: now,
    updated_at: now,
  });
}

const CertificateRecordSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  certificate_type_id: z.number().int(),
  issued_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.number(),
});
type CertificateRecord = z.infer<typeof CertificateRecordSchema>;

function createCertificate(ctx: SandboxContext, body: unknown): CertificateRecord {
  const fields = validate(CertificateCreateSchema, body);
  if (!ctx.db.get(KIND.users, fields.user_id)) throw validationError('user_id', `user ${fields.user_id} does not exist`);
  if (!ctx.db.get(LEARNING_KIND.certificateTypes, fields.certificate_type_id)) {
    throw validationError('certificate_type_id', `certificate type ${fields.certificate_type_id} does not exist`);
  }
  return ctx.db.insert(LEARNING_KIND.certificates, {
    user_id: fields.user_id,
    certificate_type_id: fields.certificate_type_id,
    issued_at: fields.issued_at ?? ctx.today(),
    expires_at: fields.expires_at ?? null,
    created_at: ctx.now(),
  });
}

function createArticle(ctx: SandboxContext, body: unknown): ArticleRecord {
  const fields = validate(ArticleCreateSchema, body);
  const now = ctx.now();
  // built through this endpoint: "rich article content" (spec: Announcements, update rule)
  return ctx.db.insert(CONTENT_KIND.articles, {
    title: fields.title ?? null,
    body: fields.body,
    origin: 'articles' as const,
    created_at: now,
    updated_at: now,
  });
}

/** Articles, handbooks, courses, journeys, certificates and certificate types (spec: Other endpoints that exist). */
export function registerLearning(router: ApiRouter, ctx: SandboxContext): void {
  const learning = (row: LearningRecord): unknown => serializeLearning(ctx, row);
  const createIn =
    (kind: string) =>
    (body: unknown): LearningRecord =>
      insertLearning(ctx, kind, validate(LearningContentCreateSchema, body));
  listAndCreate(router, ctx, {
    path: '/articles',
    kind: CONTENT_KIND.articles,
    read: 'read:articles',
    write: 'write:articles',
    serialize: (a: ArticleRecord) => serializeArticle(ctx, a),
    create: (b) => createArticle(ctx, b),
  });
  router.route('GET', '/articles/{id}', 'read:articles', (request) => {
    const article = ctx.db.get<ArticleRecord>(CONTENT_KIND.articles, idParam((request.params as { id: string }).id));
    if (!article) throw notFound();
    return { data: serializeArticle(ctx, article) };
  });
  listAndCreate(router, ctx, {
    path: '/handbooks',
    kind: LEARNING_KIND.handbooks,
    read: 'read:handbooks',
    write: 'write:handbooks',
    serialize: learning,
    create: createIn(LEARNING_KIND.handbooks),
  });
  listAndCreate(router, ctx, {
    path: '/courses',
    kind: LEARNING_KIND.courses,
    read: 'read:courses',
    write: 'write:courses',
    serialize: learning,
    create: createIn(LEARNING_KIND.courses),
  });
  listAndCreate(router, ctx, {
    path: '/journeys',
    kind: LEARNING_KIND.journeys,
    read: 'read:journeys',
    write: null,
    serialize: learning,
    create: createIn(LEARNING_KIND.journeys),
  });
  listAndCreate(router, ctx, {
    path: '/certificate-types',
    kind: LEARNING_KIND.certificateTypes,
    read: 'read:certificatetypes',
    write: 'write:certificatetypes',
    serialize: (t: { id: number; name: string; created_at: number }) => ({ id: t.id, name: t.name, created_at: ctx.iso(t.created_at) }),
    create: (b) => ctx.db.insert(LEARNING_KIND.certificateTypes, { name: validate(CertificateTypeCreateSchema, b).name, created_at: ctx.now() }),
  });
  listAndCreate(router, ctx, {
    path: '/certificates',
    kind: LEARNING_KIND.certificates,
    read: 'read:certificates',
    write: 'write:certificates',
    serialize: (c: CertificateRecord) => ({
      id: c.id,
      user_id: c.user_id,
      certificate_type_id: c.certificate_type_id,
      issued_at: c.issued_at,
      expires_at: c.expires_at,
      created_at: ctx.iso(c.created_at),
    }),
    create: (b) => createCertificate(ctx, b),
  });
}
