import { setTimeout as delay } from 'node:timers/promises';
import { webhookSecretName } from '../../bots/provision/provision-bot';
import type { Clock } from '../../clock';
import type { Store } from '../../store/store';

/** Where a rotation keeps the secret of the endpoint it is replacing, for as long as that one may still deliver. */
export const retiringSecretName = (tenant: string, bot: string): string => `webhook-retiring:${tenant}:${bot}`;

/**
 * How long secrets read from the store are kept before they are read again: what bounds the time a replica
 * that did not finish a rotation itself goes on accepting the secret it retired.
 */
export const SECRETS_FRESH_MS = 60_000;

/**
 * The least time, in real time, between two store reads of one bot's secrets: a signature that matches
 * none asks for a read (a rotation on another replica is learnt that way), and a stream of forged
 * deliveries must not make one read each. A read asked for sooner waits for its turn (shared by every
 * request asking meanwhile) rather than being skipped, so a genuine delivery signed with a new secret is
 * not refused for coming just after a forged one.
 */
export const FRESH_READ_GAP_MS = 200;

export interface SigningSecretsDeps {
  store: Pick<Store, 'secrets'>;
  /** A bot's secrets from configuration (`webhook_secrets`), for endpoints managed outside intrabot. */
  configured(tenant: string, bot: string): readonly string[];
  /** Without one, what was read is kept until `forget()`. */
  clock?: Clock | undefined;
}

interface Cached {
  secrets: readonly string[];
  readAt: number;
}

/**
 * The secrets a bot's deliveries may be signed with: its endpoint's (from the store), the retiring
 * endpoint's while a rotation overlaps the two, and the configured ones. Read once and kept a minute;
 * `read(..., { fresh: true })` reads the store again, which the receiver asks for before refusing a
 * signature, so a replica learns a rotation's new secret at the first delivery signed with it. Concurrent
 * fresh reads of one bot share one store read, and one bot's reads are at least `FRESH_READ_GAP_MS` apart.
 */
export class SigningSecrets {
  private readonly cache = new Map<string, Cached>();
  private readonly reading = new Map<string, Promise<Cached>>();
  /** When each bot's latest store read began (`performance.now()`). */
  private readonly readStarted = new Map<string, number>();

  constructor(private readonly deps: SigningSecretsDeps) {}

  async read(tenant: string, bot: string, options: { fresh?: boolean } = {}): Promise<readonly string[]> {
    const key = `${tenant}\u0000${bot}`;
    const cached = this.cache.get(key);
    const now = this.deps.clock?.now();
    const stale = cached === undefined || (now !== undefined && now - cached.readAt >= SECRETS_FRESH_MS);
    if (cached && !stale && !options.fresh) return cached.secrets;
    let pending = this.reading.get(key);
    if (!pending) {
      const waitMs = (this.readStarted.get(key) ?? -Infinity) + FRESH_READ_GAP_MS - performance.now();
      pending = (waitMs > 0 ? delay(waitMs).then(() => this.load(key, tenant, bot)) : this.load(key, tenant, bot)).finally(() => this.reading.delete(key));
      this.reading.set(key, pending);
    }
    const loaded = await pending;
    this.cache.set(key, loaded);
    return loaded.secrets;
  }

  /** Forgets what was read (the store changed: provisioning, a rotation step on this replica). */
  forget(): void {
    this.cache.clear();
  }

  private async load(key: string, tenant: string, bot: string): Promise<Cached> {
    this.readStarted.set(key, performance.now());
    const readAt = this.deps.clock?.now() ?? 0;
    const [current, retiring] = await Promise.all([
      this.deps.store.secrets.get(webhookSecretName(tenant, bot)),
      this.deps.store.secrets.get(retiringSecretName(tenant, bot)),
    ]);
    const secrets = [current, retiring, ...this.deps.configured(tenant, bot)].filter((s): s is string => s !== undefined);
    return { secrets: [...new Set(secrets)], readAt };
  }
}
