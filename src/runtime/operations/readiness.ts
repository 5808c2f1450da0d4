import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../store/store';
import { describeProvisioning, type ProvisioningSnapshot } from '../start/provisioning-progress';

/** What the runtime's bots can do: loaded, and of the deployments, which are switched off and why. */
export interface BotsReadiness {
  /** Bots loaded from the bots directory. */
  loaded: number;
  /** Bots present but not loaded (a broken manifest or module), with why. */
  notLoaded: { bot: string; reason: string }[];
  /** Deployments (bot on tenant) in all. */
  deployments: number;
  /** Deployments provisioning switched off (missing scopes, a feature off), with why. */
  switchedOff: { tenant: string; bot: string; reason: string }[];
}

export interface ReadinessInput {
  /** Provisioned and started (false while starting and once stopping). */
  started: () => boolean;
  /** What start-up waits for (the platform failing transiently), while it waits. */
  waiting: () => string | undefined;
  /** Start-up provisioning's progress while it runs (bots done, a wait for rate budget). */
  provisioning?: () => ProvisioningSnapshot | undefined;
  store: Pick<Store, 'kind' | 'ping'>;
  bots: () => BotsReadiness;
  /** Bots paused by an operator (`intrabot bots pause`), with why: listed, and the runtime stays ready. */
  paused?: () => Promise<{ tenant: string; bot: string; reason: string | null; since: number }[]>;
}

/**
 * `GET /readyz`: whether the runtime can do its job. 200 once it has started, while its store answers,
 * and while at least one bot runs; 503 with the reason otherwise: `starting` (with what it waits for, and
 * `provisioning: { done, total, waiting_s }` while it provisions), `store_unavailable` during an outage (so a load balancer sends deliveries, alerts and proxy calls to a
 * replica that can keep them), `no_bots` when none loaded, `all_bots_switched_off` when provisioning
 * switched every deployment off. Bots that failed to load or were switched off while others run are
 * listed in a 200 (one broken bot does not take the others out of service). `/healthz` only says the
 * process works. The store is asked on every probe: a cheap, time-bounded read.
 */
export function readinessRoute(input: ReadinessInput): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  return async (_request, reply) => {
    if (!input.started()) return reply.code(503).send(startingBody(input));
    try {
      await input.store.ping();
    } catch {
      // what failed is in the logs of the operations that failed; a probe says only that it did
      return reply.code(503).send({ ok: false, reason: 'store_unavailable', message: `the ${input.store.kind} store does not answer` });
    }
    const bots = input.bots();
    // a paused bot's deliveries are still taken and kept: pausing never takes a replica out of service
    const paused = (await input.paused?.().catch(() => undefined))?.map((p) => ({
      tenant: p.tenant,
      bot: p.bot,
      reason: p.reason,
      since: new Date(p.since).toISOString(),
    }));
    const listed = {
      ...(bots.notLoaded.length ? { not_loaded: bots.notLoaded } : {}),
      ...(bots.switchedOff.length ? { switched_off: bots.switchedOff } : {}),
      ...(paused?.length ? { paused } : {}),
    };
    if (bots.loaded === 0) {
      return reply.code(503).send({ ok: false, reason: 'no_bots', message: 'no bot is loaded: nothing would handle an event', ...listed });
    }
    if (bots.deployments > 0 && bots.switchedOff.length >= bots.deployments) {
      const message = `every bot is switched off (${bots.switchedOff.length} of ${bots.deployments}): see switched_off for why`;
      return reply.code(503).send({ ok: false, reason: 'all_bots_switched_off', message, ...listed });
    }
    return { ok: true, bots: bots.loaded, ...listed };
  };
}

/**
 * What a runtime still starting says: what it waits for (a platform failing transiently), else how far
 * provisioning has come; deliveries are taken meanwhile, so the message says so.
 */
function startingBody(input: ReadinessInput): Record<string, unknown> {
  const waiting = input.waiting();
  const provisioning = input.provisioning?.();
  const progress = provisioning ? `${describeProvisioning(provisioning)}; deliveries are accepted and handled once it is done` : undefined;
  const message = waiting ?? progress;
  return { ok: false, reason: 'starting', ...(message ? { message } : {}), ...(provisioning ? { provisioning } : {}) };
}
