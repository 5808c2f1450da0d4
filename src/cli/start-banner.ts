import type { Runtime } from '../runtime/build-runtime';
import type { Sandbox } from '../sandbox/sandbox';

/** What `intrabot start` prints once the runtime listens: its URL, the bots, and in sandbox mode what to try. */
export function printBanner(url: string, runtime: Runtime, sandbox: Sandbox | undefined): void {
  const loaded =
    runtime
      .inspect()
      .bots.map((b) => b.name)
      .join(', ') || 'none';
  const lines = [`intrabot runtime on ${url}  (bots: ${loaded})`];
  for (const failure of runtime.inspect().failures) lines.push(`  not loaded: ${failure.name ?? failure.dir}: ${failure.error.message}`);
  for (const result of runtime.inspect().provisionResults) {
    for (const bot of Object.values(result.bots)) if (!bot.enabled) lines.push(`  switched off on ${result.tenant}: ${bot.name}: ${bot.reason ?? ''}`);
  }
  if (sandbox) {
    const s = sandbox.baseUrl;
    lines.push(
      `sandbox platform on ${s}  (token: ${sandbox.token}; state in .intrabot/)`,
      '',
      'Try:',
      `  # the web console: bots, deliveries as they happen, the outbox, rate budgets, jobs, alert inputs`,
      `  open ${url}/console/`,
      `  # an employee asks the ops bot who is on call; the answer is a comment on that post`,
      `  curl -s -X POST ${s}/_sandbox/users/10/posts -H 'content-type: application/json' -d '{"wall_id":1,"body":"/oncall"}'`,
      `  # greet today's birthdays now (the demo data has some)`,
      `  npx intrabot run birthday greet`,
      `  # forward an Alertmanager alert to the Operations wall`,
      `  curl -s ${url}/alerts/alerts/alertmanager -H 'Authorization: Bearer sandbox-alert-token' -H 'content-type: application/json' --data @test/fixtures/alerts/alertmanager-firing.json`,
      `  # the platform API through the proxy, and its reference`,
      `  curl -s -H 'Authorization: Bearer sandbox-proxy-key' ${url}/api/open/v1/walls`,
      `  open ${url}/docs`,
      `  # what the bots posted on the Company wall`,
      `  curl -s ${s}/_sandbox/walls/1/posts`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
