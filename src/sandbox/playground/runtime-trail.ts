import { z } from 'zod';
import { isLoopbackHost } from '../../request-address';

/** What the runtime did with one delivery, as its console tells it. */
export interface Handling {
  status: 'waiting' | 'in progress' | 'retrying' | 'dead' | 'handled' | 'ignored';
  /** Why it was ignored, or the error it failed with. */
  detail: string | null;
  attempts: number | null;
  /** What its handler queued: a comment to post 12, a post on a wall... */
  sends: { kind: string; to: string; text: string }[];
}

// only the fields read here: the console's answer has more, and may grow
const RowsSchema = z.object({
  rows: z.array(
    z.object({
      deliveryId: z.string(),
      status: z.enum(['waiting', 'in progress', 'retrying', 'dead', 'handled', 'ignored']),
      detail: z.string().nullable(),
      attempts: z.number().nullable(),
      sends: z.array(z.object({ kind: z.string(), to: z.string(), text: z.string() })),
    }),
  ),
});

const READ_TIMEOUT_MS = 1_500;
const ROWS_READ = 1_000;

/**
 * The other half of a delivery's trail: what each runtime that received the sandbox's deliveries did with
 * them (handled and what it sent, ignored and why, failing with its error, dead), read from its console's
 * deliveries (`GET <runtime>/console/api/deliveries`) by delivery id. Only runtimes on this machine are
 * asked (the hook addresses say where), and only a console that answers without a token does (sandbox
 * mode): otherwise the trail stops at the platform's side, which is all a real platform would know.
 *
 * @example await runtimeTrail(['http://127.0.0.1:3000']) // Map { 'c46151cb-...' => { status: 'handled', sends: [...] } }
 */
export async function runtimeTrail(origins: readonly string[]): Promise<Map<string, Handling>> {
  const trail = new Map<string, Handling>();
  const reads = [...new Set(origins)].filter((origin) => isLoopbackHost(new URL(origin).host)).map((origin) => readConsole(origin));
  for (const rows of await Promise.all(reads)) {
    for (const row of rows) trail.set(row.deliveryId, { status: row.status, detail: row.detail, attempts: row.attempts, sends: row.sends });
  }
  return trail;
}

async function readConsole(origin: string): Promise<z.infer<typeof RowsSchema>['rows']> {
  try {
    const res = await fetch(`${origin}/console/api/deliveries?limit=${ROWS_READ}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (!res.ok) return [];
    const parsed = RowsSchema.safeParse(await res.json());
    return parsed.success ? parsed.data.rows : [];
  } catch {
    // a runtime stopped, or a console behind a token: the platform's side of the trail is still shown
    return [];
  }
}
