import {
  ApiBadResponseError,
  ApiError,
  ApiForbiddenError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiRateLimitedError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnauthorizedError,
  ApiValidationError,
  UncertainWriteError,
} from '../../api/errors';
import { IntrabotError, isIntrabotError, type ErrorCode } from '../../errors';
import { ENV_KEYS, type RuntimeConfig } from '../config/config';
import { publicUrlMissingMessage } from '../config/public-url-message';
import { settingName, shownValue } from '../config/setting-names';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A start-up failure said once, for the person who runs intrabot (issue #15): the setting to fix, its
 * value (a secret masked) and what to do. `intrabot start` prints the message and exits non-zero.
 */
export class StartupError extends IntrabotError {
  /** The setting at fault as the user set it (`INTRABOT_PORT`, `intrabot.yaml: tenants[0].token`). */
  readonly setting: string;
  constructor(code: ErrorCode, setting: string, message: string, cause?: unknown) {
    super(code, message, { cause, details: { setting } });
    this.setting = setting;
  }
}

export interface FailureContext {
  config: RuntimeConfig;
  env: Env;
  /** Which tenant was being provisioned (for a platform's answer). */
  tenant?: string | undefined;
  /** That tenant was never provisioned from this store: a refused connection is a wrong URL, not an outage. */
  firstContact?: boolean | undefined;
}

/** The name and shown value of a setting, for the front of a message. */
function setting(ctx: FailureContext, path: readonly PropertyKey[], value: unknown): { name: string; shown: string } {
  const name = settingName(path, { env: ctx.env, envKeys: ENV_KEYS });
  return { name, shown: `${name}=${shownValue(name, value)}` };
}

function listenError(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * A port the runtime (`which: 'runtime'`) or the sandbox beside it cannot listen on: taken
 * (EADDRINUSE), not allowed (EACCES), or an address this machine does not have (EADDRNOTAVAIL).
 */
export function listenFailure(error: unknown, which: 'runtime' | 'sandbox', ctx: FailureContext): StartupError | undefined {
  const code = listenError(error);
  if (code === undefined || !['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes(code)) return undefined;
  const port = which === 'runtime' ? ctx.config.port : ctx.config.sandbox_port;
  const at = `${ctx.config.host}:${port}`;
  if (code === 'EADDRNOTAVAIL') {
    const host = setting(ctx, ['host'], ctx.config.host);
    return new StartupError(
      'invalid_config',
      host.name,
      `${host.shown}: this machine has no such address (${code}); set INTRABOT_HOST to one of its addresses, or 0.0.0.0 for all`,
      error,
    );
  }
  const s = setting(ctx, [which === 'runtime' ? 'port' : 'sandbox_port'], port);
  const what = which === 'runtime' ? 'the runtime' : 'the sandbox';
  const why = code === 'EADDRINUSE' ? `another process already listens on ${at}` : `this user may not listen on ${at}`;
  return new StartupError(
    'invalid_config',
    s.name,
    `${s.shown}: ${what} cannot listen: ${why} (${code}); stop that process or set ${s.name} to a free port`,
    error,
  );
}

/** A public URL the platform would refuse for webhook endpoints (spec: Outgoing webhook management: HTTPS). */
export function publicUrlFailure(ctx: FailureContext, problem: 'missing' | 'not_https'): StartupError {
  const name = settingName(['public_url'], { env: ctx.env, envKeys: ENV_KEYS });
  if (problem === 'missing') {
    return new StartupError('invalid_config', name, publicUrlMissingMessage(name));
  }
  return new StartupError(
    'invalid_config',
    name,
    `${name}=${shownValue(name, ctx.config.public_url)}: the platform accepts only https webhook URLs (http only on a loopback host); set ${name} to the runtime's https address (a TLS-terminating proxy in front of it)`,
  );
}

/**
 * Worth another try at start: the platform may come back (5xx, network faults, timeouts, a 429). With
 * `firstContact` (a tenant this store has never provisioned), a refused connection is not: nothing has
 * ever answered at that URL, so it is far likelier a wrong base URL than an outage, and a minute of
 * retries only hides that (issue #24).
 */
export function isTransient(error: unknown, options: { firstContact?: boolean } = {}): boolean {
  const inner = error instanceof UncertainWriteError && error.cause !== undefined ? error.cause : error;
  if (inner instanceof ApiNetworkError) {
    const code = networkFaultCode(inner);
    return !(code === 'ENOTFOUND' || (options.firstContact === true && code === 'ECONNREFUSED'));
  }
  return inner instanceof ApiServerError || inner instanceof ApiTimeoutError || inner instanceof ApiRateLimitedError || error instanceof UncertainWriteError;
}

/**
 * The system's code for a request that got no answer (`ECONNREFUSED`, `ENOTFOUND`, `EAI_AGAIN`), from the
 * error or the one beneath it. EAI_AGAIN (the resolver could not answer now) is left transient: that is
 * what it says, and a DNS server that is slow at a pod's start is common.
 */
export function networkFaultCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 4; at = (at as { cause?: unknown }).cause, depth += 1) {
    if (!(at instanceof ApiError) && 'code' in at && typeof at.code === 'string') return at.code;
  }
  return undefined;
}

const UNREACHABLE_HINT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepts connections there (ECONNREFUSED)',
  ENOTFOUND: 'the host name does not resolve (ENOTFOUND)',
};

/**
 * What the platform's answer at start means for the one who configured the tenant: a 401 names the
 * token, a 404 or a host that does not resolve the base URL, a refused webhook URL the public URL. An
 * error it cannot place is returned as it is.
 */
export function platformFailure(error: unknown, ctx: FailureContext, waited?: { attempts: number; seconds: number }): unknown {
  const index = Math.max(
    0,
    ctx.config.tenants.findIndex((t) => t.id === ctx.tenant),
  );
  const tenant = ctx.config.tenants[index];
  if (!tenant || !(error instanceof ApiError)) return error;
  const where = ctx.config.tenants.length > 1 ? ` (tenant ${tenant.id})` : '';
  const baseUrl = setting(ctx, ['tenants', index, 'base_url'], tenant.base_url);
  if (ctx.config.mode === 'sandbox') {
    const port = setting(ctx, ['sandbox_port'], ctx.config.sandbox_port);
    return new StartupError(error.code, port.name, `${port.shown}: the sandbox beside the runtime did not answer as expected: ${error.message}`, error);
  }
  if (error instanceof ApiUnauthorizedError) {
    const token = setting(ctx, ['tenants', index, 'token'], tenant.token);
    return new StartupError(
      'api_unauthorized',
      token.name,
      `${token.shown}${where}: the platform at ${tenant.base_url} refused the token (${error.message}); it is wrong, expired or revoked: create a service token in the platform's admin settings and set ${token.name} to it`,
      error,
    );
  }
  if (error instanceof ApiForbiddenError && error.path.endsWith('/token')) {
    const token = setting(ctx, ['tenants', index, 'token'], tenant.token);
    return new StartupError(
      'api_forbidden',
      token.name,
      `${token.shown}${where}: the platform refused to describe the token (${error.message}); use a service token`,
      error,
    );
  }
  const unreachable = error instanceof ApiNetworkError ? UNREACHABLE_HINT[networkFaultCode(error) ?? ''] : undefined;
  if (unreachable && !(waited && isTransient(error, { firstContact: ctx.firstContact ?? false }))) {
    // said at once and always naming the tenant: with several, which one's URL is wrong is the question
    return new StartupError(
      error.code,
      baseUrl.name,
      `${baseUrl.shown} (tenant ${tenant.id}): cannot reach the platform: ${unreachable}; is the URL right (the customer's host, such as https://acme.example.com, without /api/open/v1)? is the platform reachable from here (DNS, a firewall, a proxy)?`,
      error,
    );
  }
  const notThePlatform = (error instanceof ApiNotFoundError || error instanceof ApiBadResponseError) && error.path.endsWith('/token');
  if (notThePlatform) {
    return new StartupError(
      error.code,
      baseUrl.name,
      `${baseUrl.shown}${where}: no platform API answers there (${error.message}); set ${baseUrl.name} to the customer's host, such as https://acme.example.com, without /api/open/v1`,
      error,
    );
  }
  if (error instanceof ApiValidationError && error.field?.endsWith('url') && /webhook/.test(error.path)) {
    const name = settingName(['public_url'], { env: ctx.env, envKeys: ENV_KEYS });
    return new StartupError(
      'invalid_config',
      name,
      `${name}=${shownValue(name, ctx.config.public_url ?? '(unset)')}: the platform refused it as a webhook URL (${error.message}); set ${name} to the runtime's https address`,
      error,
    );
  }
  if (waited && isTransient(error)) {
    const setting = `${baseUrl.shown}${where}`;
    return new StartupError(
      error.code,
      baseUrl.name,
      `${setting}: the platform did not answer usably in ${waited.attempts} attempt(s) over ${waited.seconds} s (${error.message}); check that the host is up and reachable from here, or wait longer with INTRABOT_START_WAIT (seconds)`,
      error,
    );
  }
  return error;
}

/** An error for the start-up message: a `StartupError`'s own message, else the error's. */
export function startupMessage(error: unknown): string {
  if (isIntrabotError(error) || error instanceof Error) return error.message;
  return String(error);
}
