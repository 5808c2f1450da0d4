import type { OnCall } from '../bots/manifest-oncall';

/**
 * The person on call at `nowMs`: the person, or the rota's name for the turn `nowMs` falls in (before
 * `from`, the first name).
 *
 * @example onCallAt({ rota: ['Ada', 'Grace'], every: 604800000, from: '2026-01-05T09:00:00+01:00' }, Date.parse('2026-01-13T10:00:00+01:00')) // => 'Grace'
 */
export function onCallAt(oncall: OnCall, nowMs: number): string {
  if ('person' in oncall) return oncall.person;
  const turns = Math.floor((nowMs - Date.parse(oncall.from)) / oncall.every);
  const index = Math.max(0, turns) % oncall.rota.length;
  return oncall.rota[index]!;
}
