import type { IntrabotApi } from '../api/create-api-client';
import type { Clock } from '../clock';
import { IntrabotError } from '../errors';
import type { SandboxControl } from './sandbox-control';

/**
 * What a check may use besides the client of the host under test. Everything here works over
 * HTTP: the suite never reaches into a sandbox's memory, so the same checks run against a real
 * customer host.
 */
export interface ConformanceContext {
  /** The host under test, `{base_url}` in the spec. */
  baseUrl: string;
  /** A client whose token lacks some scopes (`--narrow-token`), when one was given. */
  narrow?: IntrabotApi | undefined;
  /** Another client on the same host with `token` (an invalid one for the 401 check); the session closes it. */
  clientFor(token: string): IntrabotApi;
  /** The sandbox's control API (`/_sandbox/*`) when the host is a sandbox; absent against the platform. */
  sandbox?: SandboxControl | undefined;
  /** Whether writing checks may run: always on a sandbox, on the platform only with `--allow-writes`. */
  allowWrites: boolean;
  /** The client's clock (the sandbox's own when it runs in this process). */
  clock: Clock;
  /** The brand part of event names on this host (`service` in the spec and the sandbox). */
  eventPrefix: string;
}

/** One rule of the spec, checked over HTTP. */
export interface ConformanceCheck {
  /** Stable id, `<area>.<rule>`: `pagination.per-page-cap`. */
  id: string;
  /** The rule in one line, as a test name states it. */
  title: string;
  /** The spec section it checks, e.g. `Pagination`, `Award rules 3`. */
  section: string;
  /** True when the check only reads, so it is safe against a real customer host. */
  readOnly: boolean;
  /** Resolves when the host follows the rule; throws `ConformanceMismatch` (or an API error) when not, `CheckSkipped` when it cannot tell. */
  run(api: IntrabotApi, ctx: ConformanceContext): Promise<void>;
}

/** The host answered differently from the spec. */
export class ConformanceMismatch extends IntrabotError {
  constructor(message: string) {
    super('conformance_mismatch', message);
  }
}

/** The check cannot run against this host (no sandbox clock, no narrow token, a feature off...). */
export class CheckSkipped extends IntrabotError {
  readonly reason: string;
  constructor(reason: string) {
    super('conformance_skipped', reason);
    this.reason = reason;
  }
}

/** Stops a check with a reason; the parity table shows it as skipped. */
export function skip(reason: string): never {
  throw new CheckSkipped(reason);
}
