import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildOpenApiDocument } from '../api/openapi';
import { renderDocsPage } from './docs-page';

export interface OpenApiRouteOptions {
  /**
   * The runtime's public address (`INTRABOT_PUBLIC_URL`); the document's server is this plus
   * `/api/open/v1`. Default: the address the request came to.
   */
  publicUrl?: string;
}

/**
 * `GET /openapi.json` (the platform's API as served by the proxy) and `GET /docs` (a browsable,
 * self-contained reference page). The document is built once, when first asked for; only `servers`
 * follows the address.
 *
 * @example
 * await registerOpenApiRoutes(app, { publicUrl: config.public_url });
 */
export async function registerOpenApiRoutes(app: FastifyInstance, options: OpenApiRouteOptions = {}): Promise<void> {
  // built on the first request, not at start: converting the whole catalog to JSON Schema takes a
  // noticeable part of a start-up that must stay under 1.5 s, and most runtimes are never asked
  let built: ReturnType<typeof buildOpenApiDocument> | undefined;
  const baseDocument = (): ReturnType<typeof buildOpenApiDocument> => (built ??= buildOpenApiDocument());
  const serverOf = (request: FastifyRequest): string => `${(options.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')}/api/open/v1`;
  const documentFor = (request: FastifyRequest) => {
    const base = baseDocument();
    return {
      ...base,
      servers: [{ url: serverOf(request), description: 'The intrabot API proxy (authenticate with a proxy key).' }],
      components: {
        ...(base.components as Record<string, unknown>),
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'A proxy key (`Authorization: Bearer <key>`); `X-Proxy-Key` works too.' },
        },
      },
    };
  };
  app.get('/openapi.json', async (request) => documentFor(request));
  // the page is the same for one address: render it once per address seen (bounded: Host is caller-chosen)
  const pages = new Map<string, string>();
  const pageFor = (request: FastifyRequest): string => {
    const server = serverOf(request);
    let page = pages.get(server);
    if (page === undefined) {
      page = renderDocsPage(documentFor(request));
      if (pages.size >= 8) pages.clear();
      pages.set(server, page);
    }
    return page;
  };
  app.get('/docs', async (request, reply) => reply.type('text/html; charset=utf-8').send(pageFor(request)));
}
