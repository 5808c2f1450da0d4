import { AlertInputState } from '../../alerts/alert-input-state';
import { LoopGuard } from '../../bots/loop-guard';
import type { Clock } from '../../clock';
import type { Logger } from '../../log';
import { Outbox } from '../../outbox/outbox';
import { OutboxSender, type CreatedByEntry } from '../../outbox/sender';
import { holdIfPaused, PAUSED_BOTS_SPACE, PausedBots } from '../../store/paused-bots';
import type { Store } from '../../store/store';
import { botOf } from '../../outbox/entry';
import type { DeploymentTable } from '../deployments';
import { entryResolver } from './resolve-entry';
import type { RuntimeAddress } from '../runtime-address';
import { SignedFiles } from './signed-files';

/** The sending side: what bots and alert inputs queue into, and what sends it. */
export interface DeliveryParts {
  loopGuard: LoopGuard;
  /** The alert inputs' memory: a firing message's post is recorded there once the sender created it. */
  alertState: AlertInputState;
  outbox: Outbox;
  sender: OutboxSender;
  /** Local files and bytes served to the platform at signed URLs (incoming-webhook media). */
  files: SignedFiles;
  /** Which bots are paused (every replica's view): their deliveries, jobs and messages are held. */
  paused: PausedBots;
}

export interface DeliveryDeps {
  clock: Clock;
  store: Store;
  table: DeploymentTable;
  address: RuntimeAddress;
  logger: Logger;
  pollMs?: number | undefined;
}

/**
 * The outbox and its sender, with what the sender tells on the way: loop prevention learns every post
 * and comment the runtime created (and the token's user), and an alert's post is recorded for its
 * resolution. A message queued before provisioning finished is sent as its bot user, never the token's.
 */
export function buildDelivery(deps: DeliveryDeps): DeliveryParts {
  const { clock, store, table } = deps;
  const loopGuard = new LoopGuard(store.kv('runtime:loop'));
  const alertState = new AlertInputState(store);
  const paused = new PausedBots(store.kv(PAUSED_BOTS_SPACE), clock);
  const sender = new OutboxSender({
    store,
    clock,
    clientFor: (tenant) => table.tenant(tenant)?.api,
    hooks: {
      onCreated: (created) => noteCreated(loopGuard, alertState, created),
      onSentText: (sent) => loopGuard.noteSentText(sent.tenant, sent.text),
    },
    logger: { warn: (details, message) => deps.logger.warn(details, message) },
    resolve: entryResolver({ provisioned: (tenant) => table.provisioning(tenant), walls: (tenant) => table.tenant(tenant)?.walls }),
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    hold: async (lease, record) => {
      const owner = botOf(record);
      return owner !== undefined && holdIfPaused(paused, store.outbox, lease, owner, clock.now());
    },
  });
  const outbox = new Outbox({ store, clock, onEnqueued: () => sender.wake() });
  const files = new SignedFiles(store, clock, () => deps.address.public());
  return { loopGuard, alertState, outbox, sender, files, paused };
}

async function noteCreated(loopGuard: LoopGuard, alertState: AlertInputState, created: CreatedByEntry): Promise<void> {
  await loopGuard.noteCreated(created.tenant, created.kind, created.id);
  if (created.tokenUser) await loopGuard.noteTokenUser(created.tenant, created.tokenUser);
  if (created.alert) {
    const { bot, refs, wallId, text, group } = created.alert;
    await alertState.recordPost(created.tenant, bot, refs, created.id, { ...(wallId ? { wallId } : {}), text, ...(group ? { group } : {}) });
  }
}
