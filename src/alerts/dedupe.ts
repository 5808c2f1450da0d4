import { z } from 'zod';
import { AlertStatusSchema, type Alert, type AlertGroup } from './alert';

/**
 * What the caller keeps per fingerprint between notifications (in the store, per alert input). The
 * posts a resolution answers are kept apart, by ref (src/alerts/alert-input-state.ts).
 */
export const AlertStateEntrySchema = z.object({
  status: AlertStatusSchema,
  startedAt: z.string().optional(),
  /** When the status last changed (ms, caller's clock). */
  changedAt: z.number(),
  /** When a notification last mentioned this alert (ms, caller's clock). */
  seenAt: z.number(),
});
export type AlertStateEntry = z.infer<typeof AlertStateEntrySchema>;

export const AlertStateMapSchema = z.record(z.string(), AlertStateEntrySchema);
export type AlertStateMap = z.infer<typeof AlertStateMapSchema>;

/** `new`: first seen firing; `resolved`: firing → resolved; `refired`: fires again (new start). */
export type AlertChangeKind = 'new' | 'resolved' | 'refired';

export interface AlertChange {
  kind: AlertChangeKind;
  alert: Alert;
  /** The state before this notification, if the alert was known. */
  previous?: AlertStateEntry;
}

export interface DedupeOptions {
  /** Now, in ms, from the caller's clock. */
  now: number;
  /** Forget alerts not mentioned for this long (default 7 days), so the map does not grow forever. */
  retentionMs?: number;
  /** Report a resolved alert never seen firing (default true: it may have fired before a restart). */
  reportUnseenResolved?: boolean;
}

export interface DedupeResult {
  changes: AlertChange[];
  next: AlertStateMap;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Keep only the alerts whose state changed since the last notification. Alertmanager resends
 * whole groups (on `group_interval` and `repeat_interval`), so an unchanged repeat yields no
 * change; every state change does. A firing alert whose start time moved fired again even if
 * its resolution was never seen (`send_resolved: false`). Pure: the caller stores `next`.
 *
 * @example
 * const first = dedupeGroup({}, group, { now });          // changes: every firing alert, kind 'new'
 * const again = dedupeGroup(first.next, group, { now });  // changes: []
 */
export function dedupeGroup(previous: AlertStateMap, group: AlertGroup, options: DedupeOptions): DedupeResult {
  // compare against what is kept: an alert last seen before the retention horizon counts as new
  const next: AlertStateMap = pruned(previous, options);
  const known = { ...next };
  const changes: AlertChange[] = [];
  for (const alert of group.alerts) {
    const before = known[alert.fingerprint];
    const kind = changeKind(before, alert, options.reportUnseenResolved ?? true);
    next[alert.fingerprint] = nextEntry(before, alert, kind !== undefined, options.now);
    if (kind) changes.push(before ? { kind, alert, previous: before } : { kind, alert });
  }
  return { changes, next };
}

function changeKind(before: AlertStateEntry | undefined, alert: Alert, reportUnseenResolved: boolean): AlertChangeKind | undefined {
  if (!before) return alert.status === 'firing' ? 'new' : reportUnseenResolved ? 'resolved' : undefined;
  if (before.status !== alert.status) return alert.status === 'firing' ? 'refired' : 'resolved';
  const restarted = alert.status === 'firing' && before.startedAt !== undefined && alert.startedAt !== undefined && before.startedAt !== alert.startedAt;
  return restarted ? 'refired' : undefined;
}

function nextEntry(before: AlertStateEntry | undefined, alert: Alert, changed: boolean, now: number): AlertStateEntry {
  const startedAt = alert.startedAt ?? before?.startedAt;
  return {
    status: alert.status,
    ...(startedAt !== undefined && { startedAt }),
    changedAt: changed || !before ? now : before.changedAt,
    seenAt: now,
  };
}

function pruned(previous: AlertStateMap, options: DedupeOptions): AlertStateMap {
  const horizon = options.now - (options.retentionMs ?? DEFAULT_RETENTION_MS);
  const kept: AlertStateMap = {};
  for (const [fingerprint, entry] of Object.entries(previous)) {
    if (entry.seenAt >= horizon) kept[fingerprint] = entry;
  }
  return kept;
}
