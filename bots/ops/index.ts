import { auditLog, defineBot, z } from 'intrabot';
import { askToDeploy, confirmDeploy } from './deploy';

export default defineBot({
  config: z.object({
    status_url: z.string().default(''),
    services: z.array(z.string()).default([]),
    oncall: z.string(),
  }),
  // every run (command, answer, timeout) recorded: `intrabot deliveries --audit`, the console
  use: [auditLog()],
  commands: {
    deploy: {
      description: 'Deploys a service to an environment, once you confirm, e.g. "/deploy api staging"',
      args: [
        { name: 'service', required: true },
        { name: 'env', required: true },
      ],
      run: askToDeploy,
    },
    status: {
      description: 'Shows the health of each service, or of one',
      args: [{ name: 'service', required: false }],
      run: async (cmd, ctx) => {
        const statuses = await readStatuses(ctx.config, (key) => ctx.store.get<string>(key), ctx.signal);
        const wanted = cmd.args[0] ? statuses.filter((s) => s.service === cmd.args[0]) : statuses;
        if (wanted.length === 0) return ctx.reply(`I know no service "${cmd.args[0]}".`);
        return ctx.reply(wanted.map((s) => `${s.state === 'ok' ? '✅' : '⚠️'} ${s.service}: ${s.state}`).join('\n'));
      },
    },
    declare: {
      description: 'Records the state of a service, e.g. "/declare api degraded"',
      args: [
        { name: 'service', required: true },
        { name: 'state', required: true },
      ],
      permissions: { managers: true },
      run: async (cmd, ctx) => {
        const [service, ...state] = cmd.args;
        if (!service || state.length === 0) return ctx.reply('Usage: /declare <service> <state>');
        await ctx.store.set(`status:${service}`, state.join(' '));
        return ctx.reply(`Noted: ${service} is ${state.join(' ')}.`);
      },
    },
    oncall: {
      description: 'Who is on call',
      run: async (_cmd, ctx) => ctx.reply(`On call: ${ctx.config.oncall}`),
    },
  },
  conversations: { 'confirm-deploy': confirmDeploy },
});

interface ServiceStatus {
  service: string;
  state: string;
}

async function readStatuses(
  config: { status_url: string; services: string[] },
  fromStore: (key: string) => Promise<string | undefined>,
  signal: AbortSignal,
): Promise<ServiceStatus[]> {
  if (config.status_url) {
    const res = await fetch(config.status_url, { signal });
    const body = (await res.json()) as Record<string, unknown>;
    return Object.entries(body).map(([service, state]) => ({ service, state: String(state) }));
  }
  return Promise.all(config.services.map(async (service) => ({ service, state: (await fromStore(`status:${service}`)) ?? 'ok' })));
}
