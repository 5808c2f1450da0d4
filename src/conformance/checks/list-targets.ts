import type { IntrabotApi } from '../../api/create-api-client';
import { ApiForbiddenError } from '../../api/errors';
import type { AnyEndpoint } from '../../api/schemas/endpoint';
import { endpoints } from '../../api/schemas/endpoints';

/**
 * Every paginated list endpoint of the catalog, with its path parameters filled from what the host
 * holds (the first wall, a post with comments...). An endpoint whose parameters cannot be found
 * (no forms on the host) is left out and named.
 */
export interface ListTarget {
  endpoint: AnyEndpoint;
  params: Record<string, number>;
}

type ParamFinder = (api: IntrabotApi) => Promise<Record<string, number> | undefined>;

async function firstId(list: Promise<{ data: { id: number }[] }>): Promise<number | undefined> {
  try {
    return (await list).data[0]?.id;
  } catch (error) {
    if (error instanceof ApiForbiddenError) return undefined;
    throw error;
  }
}

async function firstPost(api: IntrabotApi): Promise<number | undefined> {
  const walls = await api.walls.list({ per_page: 10 });
  for (const wall of walls.data) {
    const posts = await api.posts.list(wall.id, { per_page: 10 });
    const post = posts.data[0];
    if (post) return post.id;
  }
  return undefined;
}

const FINDERS: Record<string, ParamFinder> = {
  'posts.list': async (api) => {
    const id = await firstId(api.walls.list({ per_page: 1 }));
    return id === undefined ? undefined : { wall_id: id };
  },
  'comments.list': async (api) => {
    const id = await firstPost(api);
    return id === undefined ? undefined : { post_id: id };
  },
  'announcements.confirmations': async (api) => {
    const id = await firstId(api.announcements.list({ per_page: 1 }));
    return id === undefined ? undefined : { id };
  },
  'forms.responses': async (api) => {
    const id = await firstId(api.forms.list({ per_page: 1 }));
    return id === undefined ? undefined : { id };
  },
};

/** The GET endpoints answering the full list envelope (not the award lists, not the unpaginated one). */
export function listEndpoints(): AnyEndpoint[] {
  return Object.values(endpoints as Record<string, AnyEndpoint>).filter((e) => e.method === 'GET' && e.responseKind === 'list');
}

export async function listTargets(api: IntrabotApi): Promise<{ targets: ListTarget[]; unresolved: string[] }> {
  const targets: ListTarget[] = [];
  const unresolved: string[] = [];
  for (const endpoint of listEndpoints()) {
    if (endpoint.params.length === 0) {
      targets.push({ endpoint, params: {} });
      continue;
    }
    const params = await FINDERS[endpoint.id]?.(api);
    if (params) targets.push({ endpoint, params });
    else unresolved.push(endpoint.id);
  }
  return { targets, unresolved };
}
