import type { SandboxContext } from '../../context';
import type { ApiRouter } from '../../http/api-router';
import { paginate, readPageQuery } from '../../http/pagination';
import { notFound } from '../../http/sandbox-error';
import { idParam } from '../../http/validate';
import { FORM_KIND, type FormRecord, type FormResponseRecord } from './form-records';
import { serializeForm, serializeFormResponse } from './serialize-form';

type Params = { id?: string };

/**
 * spec: Other endpoints that exist — "Forms and form responses (read:forms, read:formresponses)";
 * paths and shapes not shown (DESIGN.md): GET /forms, /forms/{id}, /forms/{id}/responses,
 * /form-responses/{id}. Lists leave out deleted responses; the single GET shows them with `deleted_at`.
 */
export function registerFormApi(router: ApiRouter, ctx: SandboxContext): void {
  const page = (query: unknown) => readPageQuery(query as Record<string, unknown>, ctx.settings.timezone);
  const form = (raw: unknown): FormRecord => ctx.db.get<FormRecord>(FORM_KIND.forms, idParam(raw)) ?? throwNotFound();

  router.route('GET', '/forms', 'read:forms', (request) =>
    paginate(request, ctx.db.all<FormRecord>(FORM_KIND.forms), page(request.query), (f) => serializeForm(ctx, f)),
  );
  router.route('GET', '/forms/{id}', 'read:forms', (request) => ({ data: serializeForm(ctx, form((request.params as Params).id)) }));
  router.route('GET', '/forms/{id}/responses', 'read:formresponses', (request) => {
    const { id } = form((request.params as Params).id);
    const rows = ctx.db.filter<FormResponseRecord>(FORM_KIND.responses, (r) => r.form_id === id && r.deleted_at === null).reverse();
    return paginate(request, rows, page(request.query), (r) => serializeFormResponse(ctx, r));
  });
  router.route('GET', '/form-responses/{id}', 'read:formresponses', (request) => {
    const response = ctx.db.get<FormResponseRecord>(FORM_KIND.responses, idParam((request.params as Params).id));
    if (!response) throw notFound();
    return { data: serializeFormResponse(ctx, response) };
  });
}

function throwNotFound(): never {
  throw notFound();
}
