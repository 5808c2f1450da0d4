import { parseAlerts } from '../../alerts/adapters/parse-alerts';
import type { AlertDeployment, AlertSendMessage } from '../../alerts/alert-deployments';
import { dispatchGroup, type AlertLogger } from '../../alerts/alert-dispatch';
import { alertInputFromManifest, type ResolvedAlertInput } from '../../alerts/alert-input';
import { AlertInputState } from '../../alerts/alert-input-state';
import { checkAlertAuth } from '../../alerts/input-auth';
import { decodeAlertBody } from '../../alerts/input-body';
import { verifySignature } from '../../alerts/input-signature';
import type { EntrySink } from '../../bots/create-bot-context';
import type { BotManifest } from '../../bots/manifest';
import type { WallRef } from '../../bots/target-entry';
import type { Clock } from '../../clock';
import { IntrabotError, InvalidInputError } from '../../errors';
import type { DeliveryOutcome } from '../../runtime/ingest/handle-delivery';
import { alertEntryOf, alertInputOf, sendAlertThroughChain } from '../../runtime/alerts/deployed-alert-input';
import type { BotContext } from '../../bots/context';
import type { Chain } from '../../bots/middleware';
import type { KvSpace } from '../../store/kv';
import type { TemplateEngine } from '../../templates/template-engine';
import { MemoryClaims } from './memory-claims';
import { MemoryKv } from './memory-kv';

/** What a monitoring tool sends besides its body: headers (`authorization`, `content-type`). */
export interface AlertRequestOptions {
  /**
   * Checked as the alert route checks them: an `authorization` header is held against the input's `auth`
   * (a wrong one is refused with `unauthorized`; without one the credentials are not checked, the test
   * being about what is posted), a signature header (`x-hub-signature-256`, `x-gitlab-token`...) against
   * the input's `signing` in the same way, and `content-type` decides how the body is read (default JSON).
   */
  headers?: Record<string, string | undefined>;
  /**
   * The address's query, for an input whose tool can only put its credential there (`auth: { query_token }`,
   * as Azure Monitor's action groups and Jenkins's plugin do): a `token` given is held against it like an
   * `authorization` header (a wrong one is refused with `unauthorized`; none: not checked).
   */
  query?: Record<string, string | undefined>;
}

/** What one notification did: as the route's 202 (`accepted` alerts, `queued` message parts), and the firing posts made. */
export interface AlertRun {
  accepted: number;
  queued: number;
  /** The posts that reported alerts firing, with the ids they were given: their resolutions comment under them. */
  posts: { postId: number; text: string }[];
  outcome: DeliveryOutcome;
}

export interface AlertDoorDeps {
  /** The inputs' memory (`memoryAlertState`), shared with the bot's runs, which acknowledge alert posts in it. */
  state: AlertInputState;
  tenant: string;
  bot: { name: string; manifest: BotManifest; userId: number };
  clock: Clock;
  templates: TemplateEngine;
  sink: EntrySink;
  wallOf(name: string): Promise<WallRef>;
  logger: AlertLogger;
  /** The bot's middleware chain, composed once: alert messages pass through it as in the runtime. */
  chain: Chain;
  /** Runs `fn` with a fresh context under the handler time limit, as the runtime's handler runner does. */
  run(what: string, fn: (ctx: BotContext<unknown>) => Promise<void>): Promise<void>;
}

/** Post ids the door gives firing posts (far from the ids `testBot` gives employees' posts). */
const FIRST_POST_ID = 80_001;

/**
 * `testBot`'s alert door: a notification through one of the bot's alert inputs (`bot.yaml` `alerts:`, by
 * input name) as `POST /alerts/:bot/:input` takes it: credentials, the body decoded and read by the
 * input's format adapter, then the runtime's dispatch (dedupe against what was sent before, routing,
 * templates, splitting) through the bot's middleware into the recording outbox. The inputs' memory is kept across calls, on the fake
 * clock, so a repeat is not posted again and a resolution answers the firing post.
 */
export function createAlertDoor(deps: AlertDoorDeps): (input: string, body: unknown, options?: AlertRequestOptions) => Promise<AlertRun> {
  const { state } = deps;
  let nextPostId = FIRST_POST_ID;

  return async (name, body, options = {}) => {
    const input = inputNamed(deps, name);
    const headers = lowerCased(options.headers ?? {});
    const queryToken = options.query?.token;
    if (
      (headers.authorization !== undefined || queryToken !== undefined) &&
      input.auth &&
      !checkAlertAuth(input.auth, { authorization: headers.authorization, queryToken })
    ) {
      const given = headers.authorization !== undefined ? 'headers.authorization' : 'query.token';
      throw new IntrabotError('unauthorized', `alert input "${name}" of bot ${deps.bot.name} refuses these credentials (${given})`);
    }
    // a signature the test gives is checked as the route checks it, over the body as sent; none: not checked
    const verdict = input.signature && verifySignature(input.signature.scheme, input.signature.signing, bytesOf(body), headers, deps.clock.now());
    if (verdict === 'mismatch' || verdict === 'stale')
      throw new IntrabotError(
        'unauthorized',
        `alert input "${name}" of bot ${deps.bot.name} refuses this ${input.signature!.scheme} signature: ${verdict === 'stale' ? 'too old' : 'it does not match the body'}`,
      );
    const groups = parseAlerts(input.format, decodeAlertBody(bytesOf(body), headers['content-type'] ?? 'application/json'), {
      ...(input.mapping === undefined ? {} : { mapping: input.mapping }),
    });
    const posts: AlertRun['posts'] = [];
    const deployment: AlertDeployment = {
      tenant: deps.tenant,
      input,
      templates: deps.templates,
      targetProblem: async () => undefined,
      send: async (message: AlertSendMessage) => {
        const made = await alertEntryOf(message, { manifest: deps.bot.manifest, botUserId: deps.bot.userId, wallOf: (wall) => deps.wallOf(wall) });
        let queued: { id: string } | undefined;
        await deps.run(alertInputOf(message).what, async (ctx) => {
          queued = await sendAlertThroughChain(deps.chain, ctx, deps.sink, message, made);
        });
        if (queued === undefined) return undefined;
        // what the outbox sender does once the platform created the post: its alerts' resolutions answer it
        if (made.entry.kind === 'post' && message.refs?.length) {
          const postId = nextPostId++;
          const wallId = made.entry.wallId;
          await state.recordPost(deps.tenant, deps.bot.name, message.refs, postId, {
            ...(wallId === undefined ? {} : { wallId }),
            text: message.text,
            ...(message.group ? { group: message.group } : {}),
          });
          posts.push({ postId, text: message.text });
        }
        return queued;
      },
    };
    let queued = 0;
    for (const group of groups) queued += await dispatchGroup({ clock: deps.clock, state, logger: deps.logger }, deployment, group);
    const accepted = groups.reduce((sum, group) => sum + group.alerts.length, 0);
    const outcome: DeliveryOutcome = { status: 'handled', what: `alert input ${name}: ${accepted} alerts, ${queued} messages` };
    return { accepted, queued, posts, outcome };
  };
}

/** The alert inputs' memory in memory, on the fake clock: kept across a test's notifications. */
export function memoryAlertState(clock: Clock): AlertInputState {
  const spaces = new Map<string, KvSpace>();
  const kv = (space: string): KvSpace => spaces.get(space) ?? spaces.set(space, new MemoryKv(clock)).get(space)!;
  const claims = new MemoryClaims(clock);
  return new AlertInputState({ kv, claims: { claim: (key, ttlMs) => claims.claim(key, ttlMs), release: (key) => claims.release(key) } });
}

function inputNamed(deps: AlertDoorDeps, name: string): ResolvedAlertInput {
  const input = alertInputFromManifest(deps.bot.manifest, name);
  if (input) return input;
  const known = deps.bot.manifest.alerts.map((entry) => entry.input);
  throw new InvalidInputError(
    'input',
    `input: bot ${deps.bot.name} has no alert input "${name}" (${known.length ? `bot.yaml alerts: ${known.join(', ')}` : 'its bot.yaml has no alerts'})`,
  );
}

/** A body as a tool sends it: text or bytes as they are, anything else as JSON. */
function bytesOf(body: unknown): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  return Buffer.from(JSON.stringify(body) ?? '', 'utf8');
}

function lowerCased(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}
