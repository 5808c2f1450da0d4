// Times on the runtime's clock: every view carries `now` from that clock (the sandbox's may be
// advanced), so "3 min ago" is computed against it, never against the browser's own clock.

const LOCALE = 'en-GB';

/** "12 s", "4 min", "3 h", "2 d". */
export function span(ms) {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

/** "4 min ago", "in 12 s", "just now". */
export function relative(at, now) {
  const d = at - now;
  if (Math.abs(d) < 1500) return 'just now';
  return d < 0 ? `${span(d)} ago` : `in ${span(d)}`;
}

/** "14:03:12" today (on the runtime's clock), else "23 Mar 14:03". In `timeZone` when given. */
export function clockTime(at, now, timeZone) {
  const zone = timeZone ? { timeZone } : {};
  const day = (t) => new Intl.DateTimeFormat(LOCALE, { ...zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t);
  const sameDay = day(at) === day(now);
  const options = sameDay
    ? { ...zone, hour: '2-digit', minute: '2-digit', second: '2-digit' }
    : { ...zone, day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(LOCALE, options).format(at);
}

/** The full date and time, for a tooltip. */
export function fullTime(at) {
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: 'full', timeStyle: 'long' }).format(at);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** The last characters of a long id, enough to tell rows apart. */
export function shortId(id) {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}
