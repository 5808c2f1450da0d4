import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerWithError } from '../error-response';
import { parseAlerts } from './adapters/parse-alerts';
import type { AlertGroup } from './alert';
import type { ResolvedAlertInput } from './alert-input';
import type { AlertDeployment, AlertDeployments } from './alert-deployments';
import { dispatchGroup, type AlertDispatchDeps, type AlertLogger } from './alert-dispatch';
import { authChallenge, checkAlertAuth, redactQueryToken, type AlertInputAuth } from './input-auth';
import { verifySignature } from './input-signature';
import { decodeAlertBody } from './input-body';
import type { SnsFetch } from './sns/sns-fetch';
import { SnsReceiver } from './sns/sns-receiver';
import { nameRequest, traceHttpServer } from '../tracing/trace-sites';
import { tracingOn } from '../tracing/tracing-switch';

/** The body size limit of an alert input unless configured: 1 MiB. */
export const DEFAULT_ALERT_BODY_LIMIT = 1024 * 1024;

/** What the alert inputs are given once: the dispatch's deps (the deployments, the clock, the state, the logger) and the route's own settings. */
export interface AlertInputsOptions extends AlertDispatchDeps {
  /** The bots' deployments: each request's input is resolved here once, in `onRequest`. */
  deployments: AlertDeployments;
  /** The tenant of `/alerts/...` without a `/t/:tenant` prefix. */
  defaultTenant: string;
  bodyLimit?: number;
  /** The GET of SNS signing certificates and confirmation URLs (default `fetchFromSns`); tests pass one that serves a test certificate. */
  snsFetch?: SnsFetch;
}

/** One request's handling: the dispatch's deps, and the SNS receiver the registration made (its certificate cache). */
interface AcceptDeps extends AlertDispatchDeps {
  sns: SnsReceiver;
}

interface AlertParams {
  tenant?: string;
  bot: string;
  input: string;
}

/** The request decoration that carries the resolved deployment from the `onRequest` hook to the handler. */
const LOCATED = 'alertInput';

/**
 * `POST /alerts/:bot/:input` and `POST /t/:tenant/alerts/:bot/:input`, an encapsulated plugin:
 * resolve → authenticate (before the body is read) → decode → parse → dedupe → route → render →
 * split → queue → 202 `{ accepted, queued }` (Slack-format inputs answer `ok`, as Slack does). An `sns`
 * input verifies the AWS signature of the decoded envelope and its topic first; a subscription's
 * confirmation is answered 200 `{ confirmed: true }` once its `SubscribeURL` was visited.
 * Nothing accepted is lost: when a message cannot be queued the answer is 503 and the state of its
 * alerts is kept, so the tool's retry posts them.
 *
 * The input is located and its credentials checked in `onRequest`, before the body is read; the handler
 * reads what was located from the request (`request.getDecorator`). A firing message's post is recorded in
 * `state` by whoever sends it (the runtime's outbox sender), so the alerts' resolutions answer it.
 *
 * @example
 * const state = new AlertInputState(store);
 * await registerAlertInputs(app, { deployments, clock, state, logger: app.log });
 */
export async function registerAlertInputs(app: FastifyInstance, options: AlertInputsOptions): Promise<void> {
  const deps: AlertDispatchDeps = { clock: options.clock, state: options.state, logger: options.logger };
  // one per registration: the signing certificates it fetched are kept for the inputs it serves
  const sns = new SnsReceiver(options.snsFetch);
  await app.register(async (scope) => {
    scope.decorateRequest(LOCATED, null);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.setErrorHandler(answerWithError('alert input'));
    const route = {
      bodyLimit: options.bodyLimit ?? DEFAULT_ALERT_BODY_LIMIT,
      // `?token=` is a credential: the request log line must not carry it
      logSerializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactQueryToken(req.url) }) },
      onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
        const found = locate(options, request);
        if (!found) return reply.code(404).send({ error: 'not_found', message: 'no such alert input' });
        if (found.input.auth && !authorized(found.input.auth, request)) return refuse(reply, found, options.logger);
        request.setDecorator<AlertDeployment>(LOCATED, found);
        return undefined;
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) =>
        tracingOn() ? traceHttpServer(request, reply, (trace) => accept({ ...deps, sns, trace }, request, reply)) : accept({ ...deps, sns }, request, reply),
    };
    scope.post('/alerts/:bot/:input', route);
    scope.post('/t/:tenant/alerts/:bot/:input', route);
  });
}

async function accept(deps: AcceptDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const found = request.getDecorator<AlertDeployment>(LOCATED);
  nameRequest(deps.trace, { tenant: found.tenant, bot: found.input.bot, alertInput: found.input.input });
  // the sender's signature, over the body as received: before a byte of it is parsed
  if (!signatureVerified(found, request, deps)) return refuse(reply, found, deps.logger, 'signature');
  const body = decodeAlertBody(request.body as Buffer | undefined, request.headers['content-type']);
  if (found.input.sns) {
    // SNS signs fields of its JSON envelope: the envelope is read, the alert in it only once verified
    const receipt = await deps.sns.receive(body, found.input.sns, deps.clock.now());
    if (receipt.kind === 'unverified') return refuse(reply, found, deps.logger, 'signature');
    if (receipt.kind !== 'notification') return reply.code(200).send({ [receipt.kind]: true });
  }
  const groups = parseBody(found.input, body);
  let queued = 0;
  for (const group of groups) queued += await dispatchGroup(deps, found, group);
  if (found.input.format === 'slack') return reply.code(200).type('text/plain; charset=utf-8').send('ok');
  return reply.code(202).send({ accepted: countAlerts(groups), queued });
}

function locate(options: AlertInputsOptions, request: FastifyRequest): AlertDeployment | undefined {
  const params = request.params as AlertParams;
  return options.deployments.resolve(params.tenant ?? options.defaultTenant, params.bot, params.input);
}

function authorized(auth: AlertInputAuth, request: FastifyRequest): boolean {
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return checkAlertAuth(auth, { authorization: request.headers.authorization, queryToken: typeof token === 'string' ? token : undefined });
}

function signatureVerified(found: AlertDeployment, request: FastifyRequest, deps: AlertDispatchDeps): boolean {
  const { signature } = found.input;
  if (!signature) return true;
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  return verifySignature(signature.scheme, signature.signing, body, request.headers, deps.clock.now()) === 'ok';
}

function refuse(reply: FastifyReply, found: AlertDeployment, logger: AlertLogger, what: 'credentials' | 'signature' = 'credentials'): FastifyReply {
  // which input, never what was offered
  const where = { tenant: found.tenant, bot: found.input.bot, input: found.input.input };
  if (what === 'signature') {
    logger.warn(where, 'alert input refused a request whose signature is missing, wrong or too old');
    return reply.code(401).send({ error: 'unauthorized', message: 'missing, wrong or stale signature for this alert input' });
  }
  logger.warn(where, 'alert input refused a request with missing or wrong credentials');
  const challenge = found.input.auth && authChallenge(found.input.auth);
  if (challenge) void reply.header('WWW-Authenticate', challenge);
  return reply.code(401).send({ error: 'unauthorized', message: 'missing or wrong credentials for this alert input' });
}

function parseBody(input: ResolvedAlertInput, body: unknown): AlertGroup[] {
  return parseAlerts(input.format, body, input.mapping === undefined ? {} : { mapping: input.mapping });
}

function countAlerts(groups: readonly AlertGroup[]): number {
  return groups.reduce((sum, group) => sum + group.alerts.length, 0);
}
