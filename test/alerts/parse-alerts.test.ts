import { describe, expect, it } from 'vitest';
import { adapterFor, parseAlerts } from '../../src/alerts/adapters';
import { InvalidInputError } from '../../src/errors';
import { fixture } from './load-fixture';

describe('parseAlerts / adapterFor', () => {
  it.each([
    ['alertmanager', 'alertmanager-firing.json', 3],
    ['grafana', 'grafana-firing.json', 2],
    ['slack', 'slack-compatible-blocks.json', 1],
  ])('parses a %s body (%s) into its alerts', (format, name, count) => {
    const groups = parseAlerts(format, fixture(name));
    expect(groups).toHaveLength(1);
    expect(groups[0]?.source).toBe(format);
    expect(groups[0]?.alerts).toHaveLength(count);
  });

  it('resolves a generic preset by name', () => {
    const groups = parseAlerts('generic', fixture('uptime-kuma.json'), { mapping: 'uptime-kuma' });
    expect(groups[0]?.alerts[0]?.fingerprint).toBe('uptime-kuma-12');
  });

  it('takes an inline generic mapping', () => {
    const groups = parseAlerts('generic', { name: 'Backup' }, { mapping: { title: 'Backup job {{name}}' } });
    expect(groups[0]?.alerts[0]?.title).toBe('Backup job Backup');
  });

  it('names format for an unknown format', () => {
    const call = () => adapterFor('nagios');
    expect(call).toThrow(InvalidInputError);
    expect(call).toThrow(/^format: unknown alert format "nagios"/);
  });

  it('names mapping when generic has none or an unknown preset', () => {
    expect(() => parseAlerts('generic', {})).toThrow(/^mapping:/);
    expect(() => parseAlerts('generic', {}, { mapping: 'toString' })).toThrow(/unknown preset "toString"/);
  });

  it('fails a non-Alertmanager body given to the Alertmanager adapter, naming the missing field', () => {
    try {
      parseAlerts('alertmanager', fixture('uptime-kuma.json'));
      expect.unreachable('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toBe('body.alerts');
      expect((error as InvalidInputError).status).toBe(400);
    }
  });
});
