import { AlertInputState } from '../../alerts/alert-input-state';
import { LoopGuard } from '../../bots/loop-guard';
import type { Clock } from '../../clock';
import type { Logger } from '../../log';
import { Outbox } from '../../outbox/outbox';
import { OutboxSender } from '../../outbox/sender';
import { PAUSED_BOTS_SPACE, PausedBots } from '../../store/paused-bots';
import type { Store } from '../../store/store';
import type { DeploymentTable } from '../deployments';
import { RuntimeSendSteps } from './send-steps';
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
 * The outbox and its sender, with the runtime's steps around each send (`RuntimeSendSteps`): a paused
 * bot's entries held, loop prevention told of every post and comment the runtime created (and the
 * token's user), an alert's post recorded for its resolution. A message queued before provisioning
 * finished is sent as its bot user, never the token's.
 */
export function buildDelivery(deps: DeliveryDeps): DeliveryParts {
  const { clock, store, table } = deps;
  const loopGuard = new LoopGuard(store.kv('runtime:loop'));
  const alertState = new AlertInputState(store);
  const paused = new PausedBots(store.kv(PAUSED_BOTS_SPACE), clock);
  const steps = new RuntimeSendSteps({ clock, store, table, loopGuard, alertState, paused });
  const sender = new OutboxSender({
    store,
    clock,
    steps,
    logger: deps.logger,
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
  });
  const outbox = new Outbox({ store, clock, sender });
  const files = new SignedFiles(store, clock, () => deps.address.public());
  return { loopGuard, alertState, outbox, sender, files, paused };
}
