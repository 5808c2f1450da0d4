import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AlertFormatSchema, GENERIC_PRESETS, parseAlerts } from '../../src/alerts/adapters';
import type { GenericMappingInput } from '../../src/alerts/adapters';

interface Sample {
  /** `<format>` or `generic <preset>`, as the marker names it. */
  label: string;
  format: string;
  mapping?: GenericMappingInput | string;
  body: unknown;
}

/**
 * The sample bodies of docs/alerts.md: each ```json block marked `<!-- sample: <format> [<preset> |
 * mapping-above] -->`; `mapping-above` takes `options.mapping` of the nearest ```yaml block before it.
 */
function documentedSamples(): Sample[] {
  const text = readFileSync('docs/alerts.md', 'utf8');
  const samples: Sample[] = [];
  for (const found of text.matchAll(/<!-- sample: ([\w-]+)(?: ([\w-]+))? -->\n```json\n([\s\S]*?)\n```/g)) {
    const [, format, preset, json] = found as unknown as [string, string, string | undefined, string];
    const label = preset ? `${format} ${preset}` : format;
    samples.push({
      label,
      format,
      body: JSON.parse(json),
      ...(preset ? { mapping: preset === 'mapping-above' ? mappingAbove(text, found.index) : preset } : {}),
    });
  }
  return samples;
}

function mappingAbove(text: string, at: number): GenericMappingInput {
  const blocks = [...text.slice(0, at).matchAll(/```yaml\n([\s\S]*?)\n```/g)];
  // `${env:...}` references are resolved before a manifest is parsed; here a placeholder will do
  const inputs = parse(blocks.at(-1)![1]!.replaceAll(/\$\{env:[^}]*\}/g, 'x')) as { options: { mapping: GenericMappingInput } }[];
  return inputs[0]!.options.mapping;
}

describe('docs/alerts.md sample bodies', () => {
  it('shows a sample for every format and every generic preset', () => {
    const labels = documentedSamples().map((s) => s.label);
    for (const format of AlertFormatSchema.options.filter((f) => f !== 'generic')) expect(labels).toContain(format);
    // a preset that is a format of its own (azure-monitor) is shown as that format
    const formats = new Set<string>(AlertFormatSchema.options);
    for (const preset of Object.keys(GENERIC_PRESETS)) expect(labels).toContain(formats.has(preset) ? preset : `generic ${preset}`);
    expect(labels).toContain('generic mapping-above');
  });

  it('parses every sample through its adapter into at least one titled alert', () => {
    for (const sample of documentedSamples()) {
      const groups = parseAlerts(sample.format, sample.body, sample.mapping === undefined ? {} : { mapping: sample.mapping });
      const alerts = groups.flatMap((g) => g.alerts);
      expect(alerts.length, sample.label).toBeGreaterThan(0);
      for (const alert of alerts) expect(alert.title, sample.label).not.toBe('');
    }
  });
});
