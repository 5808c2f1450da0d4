export { achievementReadChecks, expectNewestFirst } from './achievements';
export { awardChecks } from './awards';
export { contentChecks } from './content';
export { directoryChecks } from './directory';
export { errorAndAuthChecks } from './errors-auth';
export { eventChecks } from './events';
export { paginationChecks, checkFirstPage } from './pagination';
export { postChecks } from './posts';
export { webhookChecks } from './webhooks';
