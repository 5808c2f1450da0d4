import type { SandboxModule } from '../module';

export const directoryModule: SandboxModule = {
  name: 'directory',
};
