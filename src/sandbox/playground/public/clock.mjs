// The platform's clock, shown in the customer's zone and movable: an hour or a day on, to the next time
// of day (a daily job's slot), or to a date. What became due runs before the sandbox answers.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.mjs';
import { api } from './api.mjs';

/** The clock as last told, moved on by the real time since (the stream tells it every second). */
function platformNow(clock) {
  return clock ? clock.epochMs + (Date.now() - clock.at) : undefined;
}

export function ClockControls({ clock, timezone, say }) {
  const [, setTick] = useState(0);
  const [time, setTime] = useState('08:00');
  const [date, setDate] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1_000);
    return () => clearInterval(timer);
  }, []);
  const now = platformNow(clock);
  const shown =
    now === undefined
      ? '…'
      : new Intl.DateTimeFormat('en-GB', {
          timeZone: timezone,
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
        }).format(now);

  const move = async (change, what) => {
    setBusy(true);
    try {
      const moved = await api.moveClock(change);
      say(`The clock is now ${moved.now} (${what}).`);
    } catch (e) {
      say(`The clock did not move: ${e.message}`, true);
    } finally {
      setBusy(false);
    }
  };

  return html`<section class="clock" aria-labelledby="clock-title">
    <h2 class="visually-hidden" id="clock-title">Platform clock</h2>
    <time id="clock-now" datetime=${now === undefined ? undefined : new Date(now).toISOString()} title=${`Platform time in ${timezone}`}>${shown}</time>
    <button type="button" disabled=${busy} onClick=${() => move({ advance_seconds: 3_600 }, 'an hour on')}>+1 h</button>
    <button type="button" disabled=${busy} onClick=${() => move({ advance_seconds: 86_400 }, 'a day on')}>+1 day</button>
    <form class="inline" onSubmit=${(e) => (e.preventDefault(), move({ next: time }, `the next ${time}`))}>
      <label>Next <input type="time" id="clock-next" required value=${time} onInput=${(e) => setTime(e.currentTarget.value)} /></label>
      <button type="submit" disabled=${busy}>Go</button>
    </form>
    <form class="inline" onSubmit=${(e) => (e.preventDefault(), date && move({ now: date }, `midnight of ${date}`))}>
      <label>Date <input type="date" id="clock-date" required value=${date} onInput=${(e) => setDate(e.currentTarget.value)} /></label>
      <button type="submit" disabled=${busy}>Set</button>
    </form>
  </section>`;
}
