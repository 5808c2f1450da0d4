import type { SandboxModule } from '../module';

export const formsModule: SandboxModule = {
  name: 'forms',
};
