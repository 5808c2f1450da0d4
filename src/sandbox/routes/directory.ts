import type { SandboxModule } from '../module';
import { seedDirectory } from '../seed/directory';
import { registerBotRoutes } from './directory/bots';
import { registerDirectoryControl } from './directory/control';
import { registerGroupRoutes } from './directory/groups';
import { registerPeopleViewRoutes } from './directory/people-views';
import { registerStatsRoutes } from './directory/stats';
import { registerTokenAndLocaleRoutes } from './directory/token-locales';
import { registerUserRoutes } from './directory/users';
import { registerWallRoutes } from './directory/walls';

/**
 * The company's directory: users, groups, walls, bots, the calling token, locales, statistics and
 * the people views (staff cards, org chart, manager hub); its seed is the demo company (seed/directory.ts).
 */
export const directoryModule: SandboxModule = {
  name: 'directory',
  api(router, ctx) {
    registerUserRoutes(router, ctx);
    registerGroupRoutes(router, ctx);
    registerWallRoutes(router, ctx);
    registerBotRoutes(router, ctx);
    registerTokenAndLocaleRoutes(router, ctx);
    registerStatsRoutes(router, ctx);
    registerPeopleViewRoutes(router, ctx);
  },
  control: (app, ctx) => registerDirectoryControl(app, ctx),
  seed: (ctx, options) => seedDirectory(ctx, options),
};
