import type { SandboxModule } from '../module';

export const postsModule: SandboxModule = {
  name: 'posts',
};
