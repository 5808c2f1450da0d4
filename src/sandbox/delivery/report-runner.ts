import type { SandboxContext } from '../context';
import { isoDate, zonedMidnight } from '../time';
import type { DeliveryEngine } from './delivery-engine';
import { fullEventName } from './endpoint-matching';
import { DELIVERY_KIND, type DeliveryJobRecord, type ReportRecord } from './records';
import { REPORT_TIME_ZONE, latestReportSlot, type ReportSchedule } from './report-schedule';
import { todoListStats } from './todo-stats';

/**
 * spec: Events, Outgoing reports — the daily delivery is `service.todoliststats.daily`; the weekly
 * name is not shown: the sandbox sends `service.todoliststats.weekly`.
 */
export function reportEventName(schedule: ReportSchedule): string {
  return fullEventName(`todoliststats.${schedule}`);
}

/** Sends a report now with the data as of `cutoff` (midnight starting the day of sending: yesterday's data). */
export function sendReport(ctx: SandboxContext, engine: DeliveryEngine, report: ReportRecord, cutoff: number): DeliveryJobRecord {
  return engine.dispatch({ targetKind: 'report', targetId: report.id, event: reportEventName(report.schedule), payload: todoListStats(ctx, cutoff) });
}

/** Midnight (Berlin) of the day `ms` falls on. */
export function reportCutoff(ms: number): number {
  return zonedMidnight(isoDate(ms, REPORT_TIME_ZONE), REPORT_TIME_ZONE);
}

/**
 * On every tick, each report whose latest 07:00 slot (Mondays for weekly) has passed and was not
 * sent yet goes out once; slots before the report existed are skipped, and a clock jump over
 * several slots sends only the latest.
 */
export function startReportSchedule(ctx: SandboxContext, engine: DeliveryEngine): void {
  ctx.onTick((now) => {
    for (const report of ctx.db.all<ReportRecord>(DELIVERY_KIND.reports)) {
      const slot = latestReportSlot(now, report.schedule);
      if (slot < report.created_at || (report.last_slot_at !== null && slot <= report.last_slot_at)) continue;
      ctx.db.update<ReportRecord>(DELIVERY_KIND.reports, report.id, { last_slot_at: slot });
      sendReport(ctx, engine, report, reportCutoff(slot));
    }
  });
}
