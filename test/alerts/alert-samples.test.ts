// The sample alerts the playground sends (docs/alert-samples/) are the test fixtures' own copies: what a
// user sends from the page is what the adapters' tests read, and each is parsed to the state it is named for.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALERT_SAMPLES, ALERT_SAMPLES_DIR, readAlertSample, sampleSource } from '../../src/alerts/alert-samples';
import { adapterFor } from '../../src/alerts/adapters/parse-alerts';
import { GENERIC_PRESETS } from '../../src/alerts/adapters';
import { ALERT_FORMATS } from '../../src/bots/manifest';

const FIXTURE_DIRS = ['test/fixtures/alerts', 'test/alerts/fixtures'];
const samples = Object.entries(ALERT_SAMPLES).flatMap(([source, list]) => list.map((sample) => ({ source, ...sample })));

describe('the sample alerts of the playground', () => {
  it('are the fixtures byte for byte, and every file of docs/alert-samples is one of them', () => {
    for (const sample of samples) {
      const fixture = FIXTURE_DIRS.map((dir) => join(dir, sample.file)).find((path) => existsSync(path));
      expect(fixture, sample.file).toBeDefined();
      expect(readAlertSample(sample), sample.file).toBe(readFileSync(fixture!, 'utf8'));
    }
    expect(
      readdirSync(ALERT_SAMPLES_DIR)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(samples.map((s) => s.file).sort());
  });

  it("are parsed by their source's adapter to the state each is named for", () => {
    for (const sample of samples) {
      const format = (ALERT_FORMATS as readonly string[]).includes(sample.source) ? sample.source : 'generic';
      const groups = adapterFor(format)(JSON.parse(readAlertSample(sample)!), { mapping: sample.source });
      const states = groups.flatMap((g) => g.alerts.map((a) => a.status));
      expect(states.length, sample.file).toBeGreaterThan(0);
      expect(
        states.every((state) => state === sample.state),
        `${sample.file}: ${states.join(', ')}`,
      ).toBe(true);
    }
  });

  it('are kept under a source an input can name: a format, or a preset of the generic format', () => {
    for (const source of Object.keys(ALERT_SAMPLES)) expect([...ALERT_FORMATS, ...Object.keys(GENERIC_PRESETS)], source).toContain(source);
    expect(sampleSource('generic', { mapping: 'uptime-kuma' })).toBe('uptime-kuma');
    expect(sampleSource('generic', { mapping: { title: '$.x' } })).toBeUndefined();
    expect(sampleSource('grafana', undefined)).toBe('grafana');
  });
});
