import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { openPlatformRig, type PlatformRig } from './platform-rig';

let current: PlatformRig | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const ALERTS = 1_000;

function alertText(i: number): string {
  return `[FIRING] alert-${String(i).padStart(4, '0')}: disk usage above 90% on db-${i % 7}`;
}

describe('an alert storm against one incoming webhook', () => {
  // with short digests the storm needs more than a minute's budget: the pacer has to spread it out
  it.each([4_000, 600])(
    'delivers all 1,000 alerts in digests of at most %i characters, never over 60 requests per minute (spec: Incoming webhooks)',
    async (maxChars) => {
      const clock = new AdjustableClock({ start: Date.parse('2026-11-23T08:00:00Z'), frozen: true });
      const r = await openPlatformRig(clock, { coalesce: { maxChars } });
      current = r;
      const created = await r.platform.api<{ data: { url: string } }>('POST', '/incoming-webhooks', { name: 'ops alerts', action: 'chat_message', chat_id: 2 });
      await r.store.secrets.put('incoming:sandbox:ops', created.body.data.url);
      const startedAt = clock.now();
      r.sender.start();

      // the storm: alerts keep arriving while the sender works (the clock runs fast in between)
      const driver = setInterval(() => clock.advance(20), 2);
      try {
        for (let i = 0; i < ALERTS; i += 1) {
          await r.outbox.enqueue({
            kind: 'incoming',
            tenant: 'sandbox',
            webhook: { id: 'ops', urlSecretRef: 'incoming:sandbox:ops' },
            action: 'chat_message',
            payload: { text: alertText(i) },
          });
        }
      } finally {
        clearInterval(driver);
      }
      expect(await r.run(async () => (await r.store.outbox.list()).length === 0, { advanceMs: 250, maxRealMs: 20_000 })).toBe(true);

      const sent = await r.platform.requests({ method: 'POST', path: '/api/open/v1/incoming/' });
      // zero 429s: the sandbox counts per webhook in fixed one-minute windows and never had to refuse
      expect(sent.map((q) => q.status).filter((s) => s >= 300)).toEqual([]);
      expect(sent.length).toBeLessThan(ALERTS / 5);
      const times = sent.map((q) => Date.parse(q.at));
      // within any minute (the log has whole seconds: a 59-second span), at most 60
      expect(Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 59_000).length))).toBeLessThanOrEqual(60);
      const firstAt = Date.parse(sent[0]?.at ?? '');
      expect(firstAt - startedAt).toBeLessThanOrEqual(2_000);

      const messages = (await r.platform.control('GET', '/_sandbox/messages?chat_id=2&limit=1000')) as { data: { text: string }[] };
      expect(messages.data.length).toBe(sent.length);
      expect(messages.data.every((m) => m.text.length <= maxChars)).toBe(true);
      const all = messages.data.map((m) => m.text).join('\n\n');
      const missing = Array.from({ length: ALERTS }, (_, i) => alertText(i)).filter((t) => !all.includes(t));
      expect(missing).toEqual([]);
      const doubled = Array.from({ length: ALERTS }, (_, i) => alertText(i)).filter((t) => all.indexOf(t) !== all.lastIndexOf(t));
      expect(doubled).toEqual([]);
      expect(await r.store.outbox.list({ state: 'dead' })).toEqual([]);
    },
  );
});
