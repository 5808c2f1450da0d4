import type { FastifyInstance } from 'fastify';
import type { AlertInputState } from '../../alerts/alert-input-state';
import { registerAlertInputs } from '../../alerts/input-route';
import type { SnsFetch } from '../../alerts/sns/sns-fetch';
import type { AlertDeployments } from '../../alerts/alert-deployments';
import type { Clock } from '../../clock';
import type { DeploymentTable } from '../deployments';
import type { AlertActivity } from './alert-activity';

/** What the alert routes use: the deployments' inputs (each sends through its deployment's chain), the alerts' memory, and the activity log. */
export interface AlertRouteDeps {
  clock: Clock;
  table: Pick<DeploymentTable, 'defaultTenant'>;
  /** Each deployment's alert inputs (`DeployedBots`, whose `alertInput` is the deployment's entry for alerts). */
  deployments: AlertDeployments;
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
    deployments: deps.deployments,
    clock: deps.clock,
    state: deps.alertState,
    logger: app.log,
    defaultTenant: deps.table.defaultTenant(),
    ...(deps.snsFetch && { snsFetch: deps.snsFetch }),
  });
}
