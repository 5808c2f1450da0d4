import type { RotationPlan } from '../../runtime/rotation/rotation-plan';
import type { CliCommand } from '../command';
import { messageOf, paint, processIo, table, type CliIo } from '../output';
import { adminRefusal, answerMessage, cliConfig, createRuntimeClient, pickTenant, tenantProblem } from '../runtime-client';
import { readFlags } from '../read-flags';

const USAGE = 'rotate-secret <bot> [--tenant id] | rotate-secret --status [--json]';

interface RotateArgs {
  bot: string | undefined;
  tenant: string | undefined;
  status: boolean;
  json: boolean;
}

function readArgs(args: string[]): RotateArgs | string {
  const parsed = readFlags(args, { tenant: { type: 'string' }, status: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } });
  if (typeof parsed === 'string') return parsed;
  const [bot, ...extra] = parsed.positionals;
  if (extra.length > 0) return `unexpected argument "${extra[0]}"`;
  const status = parsed.values.status ?? false;
  if (!status && !bot) return 'give the bot whose signing secret to rotate';
  return { bot, tenant: parsed.values.tenant, status, json: parsed.values.json ?? false };
}

/**
 * `intrabot rotate-secret <bot>`: asks the running runtime to rotate the bot's signing secret. The runtime
 * does it, not this command: it must accept the new secret the moment the new endpoint is subscribed,
 * keep accepting the old one through the platform's retry window on its own clock, and revoke the old
 * endpoint afterwards (minutes later, after a restart too) from the plan it keeps in the store.
 */
export async function runRotateSecret(argv: string[], io: CliIo): Promise<number> {
  const args = readArgs(argv);
  if (typeof args === 'string') {
    io.stderr(`intrabot rotate-secret: ${args}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const config = cliConfig(io, 'rotate-secret');
  if (!config) return 1;
  const client = createRuntimeClient({ env: io.env });
  if (args.status) return showStatus(io, client, args.json);
  const tenant = pickTenant(config, args.tenant);
  if (!tenant) {
    io.stderr(`intrabot rotate-secret: ${tenantProblem(config, args.tenant)}\n`);
    return 2;
  }
  const bot = args.bot ?? '';
  const answer = await client.request<{ rotation?: RotationPlan }>('POST', `/_admin/rotations/${encodeURIComponent(tenant.id)}/${encodeURIComponent(bot)}`);
  if (!answer.reachable) {
    io.stderr(`intrabot rotate-secret: no runtime is listening on ${client.baseUrl}; the running runtime rotates secrets: start it first\n`);
    return 1;
  }
  const c = paint(io);
  const refusal = adminRefusal(answer.status);
  if (refusal) {
    io.stderr(`intrabot rotate-secret: ${refusal}\n`);
    return 1;
  }
  const plan = answer.body.rotation;
  if (answer.status < 200 || answer.status >= 300 || !plan) {
    io.stderr(`intrabot rotate-secret: ${c.red('failed')} (${answer.status}): ${answerMessage(answer.body)}\n`);
    if (answer.status >= 500)
      io.stderr('the runtime keeps the rotation and tries the step again every minute; `intrabot rotate-secret --status` shows where it is\n');
    return 1;
  }
  io.stdout(
    `${c.green('rotating')} ${bot} on ${tenant.id}: endpoint ${plan.newEndpointId ?? '?'} receives every event now, both secrets are accepted; ` +
      `endpoint ${plan.oldEndpointId} is revoked at ${plan.revokeAt === undefined ? '?' : new Date(plan.revokeAt).toISOString()}, after the platform's last retry\n`,
  );
  return 0;
}

async function showStatus(io: CliIo, client: ReturnType<typeof createRuntimeClient>, json: boolean): Promise<number> {
  const answer = await client.request<{ data?: RotationPlan[] }>('GET', '/_admin/rotations');
  if (!answer.reachable) {
    io.stderr(`intrabot rotate-secret: no runtime is listening on ${client.baseUrl}\n`);
    return 1;
  }
  const refusal = adminRefusal(answer.status);
  if (refusal || answer.status !== 200) {
    io.stderr(`intrabot rotate-secret: ${refusal ?? answerMessage(answer.body)}\n`);
    return 1;
  }
  const plans = answer.body.data ?? [];
  if (json) {
    io.stdout(`${JSON.stringify(plans, null, 2)}\n`);
    return 0;
  }
  if (plans.length === 0) {
    io.stdout('no secret was rotated yet\n');
    return 0;
  }
  const time = (ms: number | undefined): string => (ms === undefined ? '-' : new Date(ms).toISOString());
  const rows = plans.map((p) => [p.tenant, p.bot, p.phase, String(p.oldEndpointId), String(p.newEndpointId ?? '-'), time(p.revokeAt), p.lastError ?? '']);
  io.stdout(`${table(['TENANT', 'BOT', 'PHASE', 'OLD', 'NEW', 'REVOKE AT', 'LAST ERROR'], rows)}\n`);
  return 0;
}

export const command: CliCommand = {
  name: 'rotate-secret',
  usage: USAGE,
  summary: "Rotate a bot's webhook signing secret without refusing an event (through the running runtime)",
  run: (args) => runRotateSecret(args, processIo()),
};
