import type { FastifyInstance } from 'fastify';
import type { AlertInputState } from '../../alerts/alert-input-state';
import { registerAlertInputs } from '../../alerts/input-route';
import type { SnsFetch } from '../../alerts/sns/sns-fetch';
import type { EntrySink } from '../../bots/create-bot-context';
import type { Clock } from '../../clock';
import type { DeploymentTable } from '../deployments';
import type { HandlerRunner } from '../ingest/handler-runner';
import type { AlertActivity } from './alert-activity';
import { TableAlertDeployments } from './table-alert-deployments';

/** What the alert routes use: the deployments' inputs, where their messages are queued and run, the alerts' memory, and the activity log. */
export interface AlertRouteDeps {
  clock: Clock;
  table: Pick<DeploymentTable, 'get' | 'provisionedBot' | 'defaultTenant'>;
  outbox: EntrySink;
  runner: Pick<HandlerRunner, 'run'>;
  /** Shared with the outbox sender, which records the posts of firing messages in it. */
  alertState: AlertInputState;
  activity: Pick<AlertActivity, 'watch'>;
  /** The GET of SNS certificates and confirmations (`RuntimeDeps.snsFetch`); default: over the network. */
  snsFetch?: SnsFetch | undefined;
}

/** `POST /alerts/:bot/:input` and `/t/:tenant/alerts/...`: monitoring tools' notifications, watched for the console. */
export async function alertRoutes(app: FastifyInstance, deps: AlertRouteDeps): Promise<void> {
  // before the routes are declared: the activity is recorded by hooks on them
  deps.activity.watch(app);
  await registerAlertInputs(app, {
    deployments: new TableAlertDeployments(deps.table, deps.outbox, deps.runner),
    clock: deps.clock,
    state: deps.alertState,
    logger: app.log,
    defaultTenant: deps.table.defaultTenant(),
    ...(deps.snsFetch && { snsFetch: deps.snsFetch }),
  });
}
