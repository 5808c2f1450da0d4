import type { SandboxModule } from '../module';

export const messagingModule: SandboxModule = {
  name: 'messaging',
};
