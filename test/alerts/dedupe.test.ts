import { describe, expect, it } from 'vitest';
import type { AlertGroup } from '../../src/alerts/alert';
import { parseAlertmanager } from '../../src/alerts/adapters/alertmanager';
import { dedupeGroup, type AlertStateMap } from '../../src/alerts/dedupe';
import { fixture } from './load-fixture';

const T0 = Date.parse('2026-08-20T09:10:00Z');
const MINUTE = 60_000;
const firing = (): AlertGroup => parseAlertmanager(fixture('alertmanager-firing.json'))[0] as AlertGroup;
const resolved = (): AlertGroup => parseAlertmanager(fixture('alertmanager-resolved.json'))[0] as AlertGroup;

describe('dedupeGroup', () => {
  it('reports every alert of a first notification as new', () => {
    const { changes, next } = dedupeGroup({}, firing(), { now: T0 });
    expect(changes.map((c) => [c.kind, c.alert.fingerprint])).toEqual([
      ['new', '5bb08dc1260ca0dd'],
      ['new', '5692f796e9a8018c'],
      ['new', '492fa31fd984e94b'],
    ]);
    expect(next['5bb08dc1260ca0dd']).toEqual({ status: 'firing', startedAt: '2026-08-20T09:06:21.842Z', changedAt: T0, seenAt: T0 });
  });

  it('yields nothing for an unchanged repeat of a group', () => {
    const first = dedupeGroup({}, firing(), { now: T0 });
    const repeat = dedupeGroup(first.next, firing(), { now: T0 + 5 * MINUTE });
    expect(repeat.changes).toEqual([]);
    expect(repeat.next['5bb08dc1260ca0dd']).toMatchObject({ changedAt: T0, seenAt: T0 + 5 * MINUTE });
  });

  it('reports firing → resolved with the previous state', () => {
    const first = dedupeGroup({}, firing(), { now: T0 });
    const { changes, next } = dedupeGroup(first.next, resolved(), { now: T0 + 30 * MINUTE });
    expect(changes.map((c) => c.kind)).toEqual(['resolved', 'resolved', 'resolved']);
    expect(changes[0]?.previous).toMatchObject({ status: 'firing' });
    expect(next['5bb08dc1260ca0dd']).toMatchObject({ status: 'resolved', changedAt: T0 + 30 * MINUTE });
  });

  it('reports only the alert whose state changed when the rest of the group repeats', () => {
    const first = dedupeGroup({}, firing(), { now: T0 });
    const mixed = firing();
    mixed.alerts[1] = resolved().alerts[1]!;
    const { changes } = dedupeGroup(first.next, mixed, { now: T0 + MINUTE });
    expect(changes.map((c) => [c.kind, c.alert.fingerprint])).toEqual([['resolved', '5692f796e9a8018c']]);
  });

  it('reports resolved → firing again as refired', () => {
    const first = dedupeGroup({}, firing(), { now: T0 });
    const second = dedupeGroup(first.next, resolved(), { now: T0 + 30 * MINUTE });
    const third = dedupeGroup(second.next, firing(), { now: T0 + 60 * MINUTE });
    expect(third.changes.map((c) => c.kind)).toEqual(['refired', 'refired', 'refired']);
  });

  it('reports a firing alert with a new start time as refired even when its resolution was missed', () => {
    const first = dedupeGroup({}, firing(), { now: T0 });
    const again = firing();
    again.alerts[0] = { ...again.alerts[0]!, startedAt: '2026-08-20T10:02:00.000Z' };
    const { changes } = dedupeGroup(first.next, again, { now: T0 + 60 * MINUTE });
    expect(changes.map((c) => [c.kind, c.alert.fingerprint])).toEqual([['refired', '5bb08dc1260ca0dd']]);
  });

  it('reports a resolved alert never seen firing unless told not to', () => {
    expect(dedupeGroup({}, resolved(), { now: T0 }).changes).toHaveLength(3);
    expect(dedupeGroup({}, resolved(), { now: T0, reportUnseenResolved: false }).changes).toEqual([]);
  });

  it('keeps alerts the group does not mention and forgets those unseen past the retention', () => {
    const stale = { status: 'resolved' as const, changedAt: T0 - 10 * MINUTE, seenAt: T0 - 10 * MINUTE };
    const recent = { status: 'firing' as const, changedAt: T0 - MINUTE, seenAt: T0 - MINUTE };
    const { next } = dedupeGroup({ stale, recent }, firing(), { now: T0, retentionMs: 5 * MINUTE });
    expect(next).toHaveProperty('recent');
    expect(next).not.toHaveProperty('stale');
  });

  it('does not modify the previous state map', () => {
    const previous: AlertStateMap = {};
    dedupeGroup(previous, firing(), { now: T0 });
    expect(previous).toEqual({});
  });
});
