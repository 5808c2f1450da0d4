import { z } from 'zod';
import type { Claims } from '../../store/claims';
import type { JsonValue } from '../../store/json';
import type { KvSpace } from '../../store/kv';

/**
 * A question a bot asked and is waiting on: which step takes the answer, the step's state, who may
 * answer, where (comments on one post) and until when. Kept in the store, so it outlives the process.
 */
export const PendingConversationSchema = z.object({
  /** Unique per question: an answer and the timeout claim it, so only one of them ends it. */
  id: z.string(),
  tenant: z.string(),
  bot: z.string(),
  step: z.string(),
  state: z.unknown(),
  /** The post whose comments are read for the answer. */
  postId: z.number().int(),
  wallId: z.number().int().optional(),
  /** The one user whose comment is the answer. */
  userId: z.number().int(),
  /** Their name, when known, for "only Ada can answer that". */
  userName: z.string().optional(),
  /** The question as it was asked (said again after an answer that is not one). */
  prompt: z.string(),
  askedAt: z.number(),
  /** When it times out (ms on the runtime's clock). */
  deadline: z.number(),
});
export type PendingConversation = z.infer<typeof PendingConversationSchema>;

/** The store's key space of one bot's waiting questions on one tenant. */
export function conversationSpace(tenant: string, bot: string): string {
  return `conversations:${tenant}:${bot}`;
}

/** How long a taken question stays claimed while its step runs (a replica that dies in a step frees it then). */
const TAKE_TTL_MS = 2 * 60_000;
/** How long a timeout is remembered as run: longer than any question waits past its deadline. */
const TIMEOUT_MARK_TTL_MS = 7 * 24 * 60 * 60_000;
/** How long a question is kept past its deadline, for a runtime that was down when it passed. */
const KEEP_PAST_DEADLINE_MS = 7 * 24 * 3_600_000;

/**
 * One bot's waiting questions on one tenant, over the store: one per user and post (a newer question to
 * the same user on the same post replaces the older), ended exactly once by its answer or its timeout,
 * whichever takes it first, across replicas.
 *
 * Ending is `take` (a claim on the question's id, then a read that it is still the one waiting), the
 * step, then `end` (the question deleted, then the claim released): a second taker finds it busy (and
 * tries again later) or gone.
 */
export class ConversationBook {
  constructor(
    private readonly kv: KvSpace,
    private readonly claims: Pick<Claims, 'claim' | 'release'>,
    private readonly clock: { now(): number },
  ) {}

  /** Records a question (replacing the one this user had waiting on this post). */
  async open(conversation: PendingConversation): Promise<void> {
    const ttlMs = Math.max(1, conversation.deadline - this.clock.now()) + KEEP_PAST_DEADLINE_MS;
    await this.kv.set(keyOf(conversation), conversation as unknown as JsonValue, { ttlMs });
  }

  /** The questions waiting on a post's comments, any user's. */
  async on(postId: number): Promise<PendingConversation[]> {
    return parsed(await this.kv.list(`${postId}:`));
  }

  /** Every waiting question of this bot on this tenant (for their timeouts). */
  async all(): Promise<PendingConversation[]> {
    return parsed(await this.kv.list());
  }

  /**
   * Claims a question for its answer or its timeout: `taken` for one caller while it is still the one
   * waiting; `gone` when it is not waiting any more (answered, timed out, replaced); `busy` while another
   * answer or timeout holds it (its step running): try again later.
   */
  async take(conversation: PendingConversation): Promise<'taken' | 'busy' | 'gone'> {
    const key = claimOf(conversation);
    const waiting = async () => ((await this.kv.get(keyOf(conversation))) as { id?: unknown } | undefined)?.id === conversation.id;
    if (!(await this.claims.claim(key, TAKE_TTL_MS, { lock: true }))) return (await waiting()) ? 'busy' : 'gone';
    if (await waiting()) return 'taken';
    await this.claims.release(key);
    return 'gone';
  }

  /**
   * Marks a taken question's timeout as run, once: false when another caller ran it already. The lock
   * `take` holds is judged on the runtime's clock, so a clock moved on by more than its TTL while a
   * timeout runs (a test's jump, a host's clock step) frees it early; this mark keeps the timeout once.
   */
  async timeoutOnce(conversation: PendingConversation): Promise<boolean> {
    return this.claims.claim(`conversation-timeout:${conversation.tenant}:${conversation.bot}:${conversation.id}`, TIMEOUT_MARK_TTL_MS);
  }

  /** A taken question is over: no longer waiting (unless its step asked the same user again there), claim released. */
  async end(conversation: PendingConversation): Promise<void> {
    const current = await this.kv.get(keyOf(conversation));
    if ((current as { id?: unknown } | undefined)?.id === conversation.id) await this.kv.delete(keyOf(conversation));
    await this.claims.release(claimOf(conversation));
  }

  /** A taken question whose step failed: waiting again, so the retried delivery can take it. */
  async giveBack(conversation: PendingConversation): Promise<void> {
    await this.claims.release(claimOf(conversation));
  }
}

function keyOf(conversation: Pick<PendingConversation, 'postId' | 'userId'>): string {
  return `${conversation.postId}:${conversation.userId}`;
}

function claimOf(conversation: PendingConversation): string {
  return `conversation:${conversation.tenant}:${conversation.bot}:${conversation.id}`;
}

function parsed(items: { value: JsonValue }[]): PendingConversation[] {
  const out: PendingConversation[] = [];
  for (const item of items) {
    const result = PendingConversationSchema.safeParse(item.value);
    if (result.success) out.push(result.data);
  }
  return out;
}
