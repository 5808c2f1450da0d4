import { ConversationBook, conversationSpace, type PendingConversation } from '../../bots/conversations/pending';
import type { Clock, TimerHandle } from '../../clock';
import type { Logger } from '../../log';
import type { Store } from '../../store/store';
import type { Deployment, DeploymentTable } from '../deployments';
import type { DeployedBots } from './deployed-bot';

export interface ConversationTimeoutsDeps {
  clock: Clock;
  store: Pick<Store, 'kv' | 'claims'>;
  table: DeploymentTable;
  logger: Logger;
  /** How often every bot's waiting questions are read again (to time out those another replica asked). Default 1 min. */
  sweepMs?: number | undefined;
}

/** The longest a timer is set for; a later deadline is armed again by a sweep. */
const MAX_TIMER_MS = 24 * 3_600_000;

/**
 * The timeouts of the questions bots asked (`ctx.ask`), on the runtime's clock, the scheduler's way: a
 * timer per question this replica knows of, and a sweep at start and every minute that arms those asked
 * before a restart or by another replica. Whichever replica's timer fires first takes the question
 * (a claim): its step's `timeout` runs once, and never after its answer.
 */
export class ConversationTimeouts {
  private readonly armed = new Map<string, TimerHandle>();
  private readonly books = new Map<string, ConversationBook>();
  private readonly running = new Set<Promise<void>>();
  private bots: Pick<DeployedBots, 'timeOut'> | undefined;
  private sweeper: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly deps: ConversationTimeoutsDeps) {}

  /** A deployment's book of waiting questions (made once, asked for on every run and comment). */
  book(deployment: Deployment): ConversationBook {
    const space = conversationSpace(deployment.tenant.config.id, deployment.bot.name);
    let book = this.books.get(space);
    if (!book) {
      book = new ConversationBook(this.deps.store.kv(space), this.deps.store.claims, this.deps.clock);
      this.books.set(space, book);
    }
    return book;
  }

  /** Starts timing out through each deployment's `timeOut`: every waiting question of every bot is armed, then read again every `sweepMs`. */
  async start(bots: Pick<DeployedBots, 'timeOut'>): Promise<void> {
    this.bots = bots;
    this.stopped = false;
    await this.sweep();
  }

  /** Arms the timeout of a question (a new one, or one read by a sweep); a question armed already is left. */
  arm(conversation: PendingConversation): void {
    if (this.stopped || this.bots === undefined || this.armed.has(conversation.id)) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, conversation.deadline - this.deps.clock.now()));
    const handle = this.deps.clock.setTimeout(() => {
      this.armed.delete(conversation.id);
      if (conversation.deadline > this.deps.clock.now()) this.arm(conversation);
      else this.track(this.fire(conversation));
    }, delay);
    this.armed.set(conversation.id, handle);
  }

  /** Stops the timers; a timeout running finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) this.deps.clock.clearTimeout(this.sweeper);
    for (const handle of this.armed.values()) this.deps.clock.clearTimeout(handle);
    this.armed.clear();
    await Promise.allSettled([...this.running]);
  }

  private async sweep(): Promise<void> {
    for (const deployment of this.deps.table.all()) {
      if (Object.keys(deployment.bot.definition.conversations).length === 0) continue;
      try {
        for (const conversation of await this.book(deployment).all()) this.arm(conversation);
      } catch (err) {
        this.deps.logger.warn({ err, bot: deployment.bot.name, tenant: deployment.tenant.config.id }, 'conversations: reading waiting questions failed');
      }
    }
    if (this.stopped) return;
    this.sweeper = this.deps.clock.setTimeout(() => this.track(this.sweep()), this.deps.sweepMs ?? 60_000);
  }

  private async fire(conversation: PendingConversation): Promise<void> {
    await this.bots?.timeOut(conversation);
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }
}
