import type { SandboxModule } from '../module';

export const contentModule: SandboxModule = {
  name: 'content',
};
