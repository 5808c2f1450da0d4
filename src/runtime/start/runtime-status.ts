import type { ProvisioningProgress } from './provisioning-progress';

/** Whether the runtime can do its job: provisioned and started (false while starting, and once stopping). */
export class RuntimeStatus {
  ready = false;
  /** What start-up waits for while the platform fails transiently (shown by `/readyz`). */
  waiting: string | undefined;

  /** Start-up provisioning's bots done and waits for budget (shown by `/readyz`, the log and the console). */
  constructor(readonly provisioning: ProvisioningProgress) {}
}
