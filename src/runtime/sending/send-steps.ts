import type { AlertInputState } from '../../alerts/alert-input-state';
import type { LoopGuard } from '../../bots/loop-guard';
import type { ProvisionedBot } from '../../bots/provision/provisioner';
import type { WallNames } from '../../bots/provision/wall-names';
import type { Clock } from '../../clock';
import { botOf, type OutboxEntry, type OutboxRecord } from '../../outbox/entry';
import type { SendClient } from '../../outbox/send-client';
import type { CreatedByEntry, SendSteps } from '../../outbox/sender';
import { holdIfPaused, type PausedBots } from '../../store/paused-bots';
import type { QueueLease } from '../../store/queue';
import type { Store } from '../../store/store';
import type { DeploymentTable } from '../deployments';
import { resolveEntry, type EntryResolverSources } from './resolve-entry';

export interface RuntimeSendStepsDeps {
  clock: Clock;
  store: Pick<Store, 'outbox'>;
  table: Pick<DeploymentTable, 'tenant' | 'provisionedBot'>;
  loopGuard: LoopGuard;
  alertState: AlertInputState;
  paused: PausedBots;
}

/**
 * The runtime's side of each send, in the order the sender takes them: a paused bot's entry is held
 * (`hold`), its tenant's paced client found (`clientFor`), what was left for send time filled in
 * (`resolve`: its bot user, a wall by name), and once sent, loop prevention told of the post or
 * comment and an alert's post recorded for its resolution (`onCreated`, `onSentText`).
 */
export class RuntimeSendSteps implements SendSteps, EntryResolverSources {
  constructor(private readonly deps: RuntimeSendStepsDeps) {}

  async hold(lease: QueueLease, record: OutboxRecord): Promise<boolean> {
    const owner = botOf(record);
    return owner !== undefined && holdIfPaused(this.deps.paused, this.deps.store.outbox, lease, owner, this.deps.clock.now());
  }

  clientFor(tenant: string): SendClient | undefined {
    return this.deps.table.tenant(tenant)?.api;
  }

  resolve(entry: OutboxEntry): Promise<OutboxEntry> {
    return resolveEntry(this, entry);
  }

  async onCreated(created: CreatedByEntry): Promise<void> {
    const { loopGuard, alertState } = this.deps;
    await loopGuard.noteCreated(created.tenant, created.kind, created.id);
    if (created.tokenUser) await loopGuard.noteTokenUser(created.tenant, created.tokenUser);
    if (created.alert) {
      const { bot, refs, wallId, text, group } = created.alert;
      await alertState.recordPost(created.tenant, bot, refs, created.id, { ...(wallId ? { wallId } : {}), text, ...(group ? { group } : {}) });
    }
  }

  async onSentText(sent: { tenant: string; text: string }): Promise<void> {
    await this.deps.loopGuard.noteSentText(sent.tenant, sent.text);
  }

  /** What this runtime's provisioning made of a bot on a tenant (for `resolve`): the one place its bot user is read. */
  provisionedBot(tenant: string, bot: string): ProvisionedBot | undefined {
    return this.deps.table.provisionedBot(tenant, bot);
  }

  /** A tenant's walls by name (for `resolve`). */
  walls(tenant: string): WallNames | undefined {
    return this.deps.table.tenant(tenant)?.walls;
  }
}
