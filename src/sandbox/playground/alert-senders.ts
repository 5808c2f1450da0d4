import { z } from 'zod';
import { isLoopbackHost } from '../../request-address';

const MAX_BODY = 1_048_576;
const ANSWER_SHOWN = 400;

const SenderSchema = z.strictObject({
  id: z.string().min(1).max(300),
  tenant: z.string().min(1).max(100),
  bot: z.string().min(1).max(100),
  input: z.string().min(1).max(100),
  source: z.string().min(1).max(100),
  state: z.enum(['firing', 'resolved']),
  url: z
    .url({ protocol: /^https?$/ })
    .refine((url) => isLoopbackHost(new URL(url).host), { error: 'must be an address on this machine (the runtime beside the sandbox)' }),
  headers: z.record(z.string(), z.string()),
  body: z.string().max(MAX_BODY),
});

export const SendersSchema = z.strictObject({ senders: z.array(SenderSchema).max(500) });

export type AlertSender = z.infer<typeof SenderSchema>;

/** What the page sees of a sender: names only, never the address (it may carry a token) or the headers. */
export interface AlertSenderView {
  id: string;
  tenant: string;
  bot: string;
  input: string;
  source: string;
  state: 'firing' | 'resolved';
}

/** How a sample was taken: the input's status and the start of its answer. */
export interface SentSample {
  id: string;
  status: number;
  ok: boolean;
  answer: string;
}

/**
 * The sample alerts the playground can send, as the runtime beside the sandbox offered them (its alert
 * inputs, their credentials, the documented bodies). Kept in memory only: the credentials never reach the
 * sandbox's state file, and the runtime offers them again whenever it starts.
 */
export class AlertSenders {
  private senders: AlertSender[] = [];
  private changes = 0;

  /** Counts replacements, so the live stream tells the page when the menu changed. */
  get version(): number {
    return this.changes;
  }

  replace(senders: readonly AlertSender[]): void {
    this.senders = [...senders];
    this.changes += 1;
  }

  list(): AlertSenderView[] {
    return this.senders.map(({ id, tenant, bot, input, source, state }) => ({ id, tenant, bot, input, source, state }));
  }

  /** Sends one sample as the monitoring tool would (a POST with its credential); undefined for an unknown id. */
  async send(id: string): Promise<SentSample | undefined> {
    const sender = this.senders.find((s) => s.id === id);
    if (!sender) return undefined;
    try {
      const res = await fetch(sender.url, { method: 'POST', headers: sender.headers, body: sender.body, signal: AbortSignal.timeout(10_000) });
      const answer = (await res.text()).slice(0, ANSWER_SHOWN);
      return { id, status: res.status, ok: res.ok, answer };
    } catch (error) {
      return { id, status: 0, ok: false, answer: `the input did not answer: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}
