import type { SandboxModule } from '../module';

export const webhooksModule: SandboxModule = {
  name: 'webhooks',
};
