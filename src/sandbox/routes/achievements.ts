import type { SandboxModule } from '../module';

export const achievementsModule: SandboxModule = {
  name: 'achievements',
};
