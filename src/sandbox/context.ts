import type { AdjustableClock } from '../clock';
import { EventBus } from './events';
import { SandboxRateLimiter } from './http/rate-limit';
import { SandboxSettingsSchema, type SandboxSettings } from './settings';
import type { SandboxDb } from './state/sandbox-db';
import { isoDate, isoDateTime } from './time';

/** Work that depends on time (scheduled publication, delivery retries, daily checks, reports). */
export type TickHandler = (nowMs: number) => void;

/**
 * What every part of the sandbox receives: its state, its clock, its settings, the event bus and the
 * shared rate limiter. One object, passed in (STYLE.md rule 5); the sandbox keeps no module-level state.
 *
 * Time-based work is state-based: a module registers a tick handler that looks for what is due
 * (`scheduled_at <= now`) and does it. Ticks run every second of real time and right after every
 * change of the clock through the control API, so a test that advances the clock sees the effects in
 * the same response cycle, and a restarted sandbox picks up what was due from its state.
 */
export class SandboxContext {
  readonly events = new EventBus();
  readonly limiter: SandboxRateLimiter;
  private readonly tickHandlers: TickHandler[] = [];
  private cachedSettings: { raw: unknown; parsed: SandboxSettings } | undefined;

  constructor(
    readonly db: SandboxDb,
    readonly clock: AdjustableClock,
  ) {
    this.limiter = new SandboxRateLimiter(clock);
  }

  get settings(): SandboxSettings {
    const raw = this.db.getMeta('settings');
    if (this.cachedSettings?.raw !== raw || !this.cachedSettings) {
      this.cachedSettings = { raw, parsed: SandboxSettingsSchema.parse(raw ?? {}) };
    }
    return this.cachedSettings.parsed;
  }

  updateSettings(patch: Partial<SandboxSettings>): SandboxSettings {
    const next = SandboxSettingsSchema.parse({ ...this.settings, ...patch });
    this.db.setMeta('settings', next);
    return next;
  }

  onTick(handler: TickHandler): void {
    this.tickHandlers.push(handler);
  }

  /** Runs every tick handler now; one handler's failure does not stop the others. */
  tick(): void {
    const now = this.clock.now();
    for (const handler of this.tickHandlers) {
      try {
        handler(now);
      } catch (error) {
        process.emitWarning(`sandbox tick handler failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  now(): number {
    return this.clock.now();
  }

  /** "Now" as the platform writes datetimes, in the customer's zone. */
  nowIso(): string {
    return isoDateTime(this.clock.now(), this.settings.timezone);
  }

  /** Today's date in the customer's zone. */
  today(): string {
    return isoDate(this.clock.now(), this.settings.timezone);
  }

  iso(ms: number): string {
    return isoDateTime(ms, this.settings.timezone);
  }

  isoOrNull(ms: number | null | undefined): string | null {
    return ms === null || ms === undefined ? null : isoDateTime(ms, this.settings.timezone);
  }
}
