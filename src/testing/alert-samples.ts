import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALERT_SAMPLES_DIR } from '../alerts/alert-samples';

/**
 * A monitoring tool's sample payload, as shipped in intrabot's docs/alert-samples/ (the adapters' own
 * fixtures: Alertmanager, Grafana, Slack-compatible, Uptime Kuma, Azure Monitor...), for a bot's alert
 * tests: the same bodies the sandbox playground's Monitoring menu sends. Throws naming the file and the
 * folder when there is no such sample.
 *
 * @example
 * await bot.alert('alertmanager', JSON.parse(alertSample('alertmanager-firing.json')));
 */
export function alertSample(file: string): string {
  if (!/^[a-z0-9-]+\.json$/.test(file)) throw new TypeError(`alertSample: "${file}" is not a sample's file name (such as alertmanager-firing.json)`);
  try {
    return readFileSync(join(ALERT_SAMPLES_DIR, file), 'utf8');
  } catch {
    throw new Error(`alertSample: no sample ${file} in ${ALERT_SAMPLES_DIR} (docs/alert-samples/README.md lists them)`);
  }
}
