import { createApiClient } from '../../api/create-api-client';
import { createSystemClock } from '../../clock';
import type { RuntimeConfig, TenantConfig } from '../../runtime/config/config';
import type { EventName, ReportName } from '../../webhooks/events';
import { botManifestFor, wallsOf } from './bot-manifest';
import { REFS_USED, SAMPLE_COMMAND, samplePayload, type RefName, type TriggerRefs } from './sample-payloads';
import { sampleReport } from './sample-report';
import { sandboxRefs } from './sandbox-refs';

/** What `trigger` sends when no `--payload` is given, and a line saying where its ids come from. */
export interface DefaultPayload {
  payload: Record<string, unknown>;
  note: string | undefined;
}

export interface DefaultPayloadInput {
  config: RuntimeConfig;
  tenant: TenantConfig;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  bot: string;
  nowMs: number;
}

const MADE_UP_NOTE = 'the ids are made up, so a handler that looks them up finds nothing; send a real payload with --payload file.json';

/** A sample report: its departments and numbers are made up. */
export function defaultReportPayload(): DefaultPayload {
  return {
    payload: sampleReport() as Record<string, unknown>,
    note: 'sample report: the departments and numbers are made up (--payload file.json sends a real one)',
  };
}

/**
 * A sample of the event. In sandbox mode it names real entities of the running sandbox (so a reply
 * lands under a post that exists, made for the sample; a greeting names the user it goes to); in connected mode, and for
 * what the sandbox does not have, the ids are made up, and the note says so.
 */
export async function defaultEventPayload(event: EventName, input: DefaultPayloadInput): Promise<DefaultPayload> {
  const wanted = REFS_USED[event];
  if (wanted.length === 0) return { payload: samplePayload(event, input.nowMs), note: undefined };
  if (input.config.mode !== 'sandbox') return { payload: samplePayload(event, input.nowMs), note: `sample payload: ${MADE_UP_NOTE}` };
  const refs = await refsFromSandbox(event, wanted, input);
  return { payload: samplePayload(event, input.nowMs, refs), note: describeRefs(refs, wanted) };
}

async function refsFromSandbox(event: EventName, wanted: readonly RefName[], input: DefaultPayloadInput): Promise<Partial<TriggerRefs>> {
  // the post is looked for on the walls the bot listens to for this event
  const manifest = wanted.includes('post') ? await botManifestFor(input.config, input.env, input.cwd, input.bot, input.tenant.id) : undefined;
  const walls = manifest === undefined || typeof manifest === 'string' ? undefined : wallsOf(manifest, event);
  const api = createApiClient({
    baseUrl: input.tenant.base_url,
    token: input.tenant.token,
    clock: createSystemClock(),
    retry: { attempts: 1 },
    timeouts: { headersMs: 5_000, bodyMs: 5_000 },
  });
  try {
    const postBody = event === 'post.created' ? SAMPLE_COMMAND : `A post of its own for intrabot trigger's sample ${event}`;
    return await sandboxRefs(api, { wanted, walls, sandboxUrl: input.tenant.base_url, postBody });
  } finally {
    await api.close();
  }
}

const DESCRIBE: { [K in RefName]: (ref: TriggerRefs[K]) => string } = {
  user: (u) => `employee ${u.id} (${u.name})`,
  post: (p) => `post ${p.id} on ${p.wall_name} (made for this sample)`,
  announcement: (a) => `announcement ${a.id}`,
  response: (r) => `form response ${r.id}`,
  achievement: (a) => `achievement ${a.id} (${a.title})`,
};

/**
 * Where a sample's ids come from, e.g. `sample payload: ids from the sandbox: post 7 on Company,
 * employee 4 (Ada Lovelace); the announcement id is made up (none found in the sandbox)`.
 */
export function describeRefs(refs: Partial<TriggerRefs>, wanted: readonly RefName[]): string {
  const found = wanted.flatMap((name) => {
    const ref = refs[name];
    return ref === undefined ? [] : [(DESCRIBE[name] as (r: typeof ref) => string)(ref)];
  });
  const missing = wanted.filter((name) => refs[name] === undefined);
  const parts = [
    found.length > 0 ? `ids from the sandbox: ${found.join(', ')}` : '',
    missing.length > 0 ? `the ${missing.join(' and ')} ${missing.length === 1 ? 'id is' : 'ids are'} made up (none found in the sandbox)` : '',
  ];
  return `sample payload: ${parts.filter(Boolean).join('; ')}`;
}
