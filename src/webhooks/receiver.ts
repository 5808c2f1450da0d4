import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import { answerWithError } from '../error-response';
import { IntrabotError, type ErrorCode } from '../errors';
import type { TraceContext } from '../tracing/spans';
import { traceHttpServer } from '../tracing/trace-sites';
import { tracingOn } from '../tracing/tracing-switch';
import { EnvelopeSchema, type Envelope } from './envelope';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from './json-depth';
import { normaliseDelivery } from './normalise';
import { verify, type VerifyResult } from './signature';

/** Where one signed delivery goes, and what it must be checked against. */
export interface ReceiverTarget {
  tenant: string;
  bot: string;
  /** The signing secret of the bot's endpoint; for `/reports`, each report's secret. */
  secret: string | readonly string[];
  /**
   * For several secrets: the event each one signs (`todoliststats.daily`), so a delivery verified with
   * one report's secret cannot pass for another report.
   */
  secretEvents?: readonly string[];
  /** The tenant's configured customer identifier; when set, the envelope must carry the same. */
  customer?: string | undefined;
  eventPrefix: string;
}

/** Why a delivery was refused (the `reason` of `intrabot_deliveries_rejected_total`); `bad_request`: HTTP-level faults such as a wrong Content-Length. */
export const REJECT_REASONS = [
  'unknown_target',
  'media_type',
  'too_large',
  'bad_request',
  'missing',
  'malformed',
  'stale',
  'future',
  'mismatch',
  'envelope',
  'customer',
] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export interface AcceptedDelivery {
  tenant: string;
  bot: string;
  deliveryId: string;
  /** The event name without the brand prefix (`post.created`). */
  event: string;
  dedupeKey?: string | undefined;
  envelope: Envelope;
  /** The body's text, which `envelope` was parsed from (stored as is). */
  envelopeJson: string;
  /** The receiving request's place in a trace (tracing on): the inbox item continues it. */
  trace?: TraceContext | undefined;
}

/** What the receiver asks of whoever mounts it, one named step each (the runtime's are `InboxIngest`, src/runtime/ingest/inbox-ingest.ts). */
export interface ReceiverSteps {
  /**
   * The target; `fresh` asks for its secrets read again (a signature matched none of those kept: a secret
   * rotated on another replica is learnt before the delivery is refused).
   */
  resolve(tenant: string, bot: string, options?: { fresh?: boolean }): Promise<ReceiverTarget | undefined> | ReceiverTarget | undefined;
  /** Durably records the delivery; resolves once it is safe to answer 200. `duplicate` when seen before. */
  accept(delivery: AcceptedDelivery): Promise<{ duplicate: boolean }>;
  /** Called after the 200 for every newly accepted delivery (wakes the router). */
  onAccepted?(delivery: AcceptedDelivery): void;
  /** Counted per reason for metrics. */
  onRejected?(reason: RejectReason): void;
}

export interface ReceiverOptions {
  /** Route path with `:tenant` and `:bot`, e.g. `/hooks/:tenant/:bot`. */
  path: string;
  clock: Clock;
  /** Where a delivery's target is found, where it is recorded, and who is told. */
  steps: ReceiverSteps;
  /** Events acknowledged but never recorded or routed (`test`, the ping). */
  acknowledgeOnly?: readonly string[];
  bodyLimit?: number;
  /** How deeply the body may nest arrays and objects (default `MAX_JSON_DEPTH`, 64). */
  maxDepth?: number;
}

class ReceiverRejection extends IntrabotError {
  constructor(
    code: ErrorCode,
    readonly reason: RejectReason,
    message: string,
  ) {
    super(code, message);
  }
}

const VERIFY_CODES: Record<string, ErrorCode> = {
  missing: 'signature_missing',
  malformed: 'signature_mismatch',
  mismatch: 'signature_mismatch',
  stale: 'signature_stale',
  future: 'signature_stale',
};

/**
 * The receiver of signed deliveries, as an encapsulated Fastify plugin: its raw-body JSON parser
 * stays inside it. The pipeline reads `verify -> check depth -> parse -> check envelope -> record -> ack`; handlers
 * run later, from the inbox, so the 200 never waits for them (the platform gives up after 3 s).
 */
export async function registerReceiver(app: FastifyInstance, options: ReceiverOptions): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // verify on the bytes as they came: re-serialised JSON would not match the signature
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.bodyLimit ?? 1_048_576 }, (_req, body, done) => done(null, body));
    scope.addContentTypeParser('*', (_req, _payload, done) =>
      done(new ReceiverRejection('unsupported_media_type', 'media_type', 'deliveries must be application/json'), undefined),
    );

    scope.setErrorHandler((error, request, reply) => reject(options, request, reply, toRejection(error)));
    scope.post<{ Params: { tenant: string; bot: string } }>(options.path, async (request, reply) =>
      tracingOn() ? traceHttpServer(request, reply, (trace) => receive(options, request, reply, trace)) : receive(options, request, reply, undefined),
    );
  });
}

async function receive(
  options: ReceiverOptions,
  request: FastifyRequest<{ Params: { tenant: string; bot: string } }>,
  reply: FastifyReply,
  trace: TraceContext | undefined,
): Promise<FastifyReply> {
  const { tenant, bot } = request.params;
  let target = await options.steps.resolve(tenant, bot);
  if (!target) throw new ReceiverRejection('unknown_bot', 'unknown_target', `no bot "${bot}" is deployed to tenant "${tenant}"`);
  const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);

  const check = (t: ReceiverTarget) => verifyAny(t.secret, header(request, 'signature'), header(request, 'timestamp'), rawBody, options.clock.now());
  let { verdict, index } = check(target);
  if (!verdict.ok && verdict.reason === 'mismatch') {
    const fresh = await options.steps.resolve(tenant, bot, { fresh: true });
    if (fresh) ({ verdict, index } = check((target = fresh)));
  }
  if (!verdict.ok)
    throw new ReceiverRejection(VERIFY_CODES[verdict.reason] ?? 'signature_mismatch', verdict.reason, `signature check failed: ${verdict.reason}`);

  // refused before anything recursive reads it: stored, it would fail every read of the inbox
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (exceedsJsonDepth(rawBody, maxDepth))
    throw new ReceiverRejection('invalid_input', 'envelope', `the body nests arrays and objects deeper than ${maxDepth} levels`);
  const envelopeJson = rawBody.toString('utf8');
  const envelope = parseEnvelope(envelopeJson);
  if (target.customer !== undefined && envelope.customer !== target.customer) {
    throw new ReceiverRejection('customer_mismatch', 'customer', 'the delivery is for another customer');
  }
  const named = normaliseDelivery(envelope, target.eventPrefix);
  if (target.secretEvents && !signsFor(target, index, named.event))
    throw new ReceiverRejection('signature_mismatch', 'mismatch', 'signature check failed: mismatch');
  if (options.acknowledgeOnly?.includes(named.event)) return reply.code(200).send({ ok: true });

  const delivery: AcceptedDelivery = { tenant, bot, ...named, envelope, envelopeJson, trace };
  const { duplicate } = await options.steps.accept(delivery);
  void reply.code(200).send({ ok: true, duplicate });
  if (!duplicate) options.steps.onAccepted?.(delivery);
  return reply;
}

/** Whether the secret that verified (the `index`th) is one the target gives for `event` (several reports may share one). */
function signsFor(target: ReceiverTarget, index: number, event: string): boolean {
  const secrets = typeof target.secret === 'string' ? [target.secret] : target.secret;
  const matched = secrets[index];
  return secrets.some((secret, i) => secret === matched && target.secretEvents?.[i] === event);
}

/** The verdict, and which of the secrets matched. */
function verifyAny(
  secrets: string | readonly string[],
  signature: string | undefined,
  timestamp: string | undefined,
  rawBody: Buffer,
  nowMs: number,
): { verdict: VerifyResult; index: number } {
  let verdict: VerifyResult = { ok: false, reason: 'mismatch' };
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  for (const [index, secret] of list.entries()) {
    verdict = verify({ secret, signature, timestamp, rawBody }, nowMs);
    if (verdict.ok || verdict.reason !== 'mismatch') return { verdict, index };
  }
  return { verdict, index: -1 };
}

function parseEnvelope(text: string): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ReceiverRejection('invalid_input', 'envelope', 'the body is not valid JSON');
  }
  const parsed = EnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || 'envelope';
    throw new ReceiverRejection('invalid_input', 'envelope', `envelope.${field}: ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function toRejection(error: unknown): ReceiverRejection {
  if (error instanceof ReceiverRejection) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 413) return new ReceiverRejection('payload_too_large', 'too_large', 'the delivery is larger than the limit');
  if (status === 415) return new ReceiverRejection('unsupported_media_type', 'media_type', 'deliveries must be application/json');
  // anything else Fastify refuses before the route (an empty body, a Content-Length that lies) is a 400 with a reason too
  if (status !== undefined && status >= 400 && status < 500) {
    return new ReceiverRejection('invalid_input', 'bad_request', `the request is malformed: ${(error as Error).message}`);
  }
  if (error instanceof IntrabotError) throw error;
  throw error instanceof Error ? error : new Error(String(error));
}

/** Counts the refusal by its reason, and answers it as every route answers an error. */
function reject(options: ReceiverOptions, request: FastifyRequest, reply: FastifyReply, rejection: ReceiverRejection): FastifyReply {
  options.steps.onRejected?.(rejection.reason);
  return answerRefusal(rejection, request, reply);
}

const answerRefusal = answerWithError('delivery');
