import type { SandboxModule } from '../module';
import { seedContent } from '../seed/content';
import { registerAnnouncements } from './content/announcements';
import { registerCalendarEntries } from './content/calendar-entries';
import { registerCalendarEventTypes } from './content/calendar-event-types';
import { registerConfirmations } from './content/confirmations';
import { registerContentControl } from './content/control';
import { publishDueEvents, registerEvents } from './content/events';
import { registerLearning } from './content/learning';

export { createCalendarEntry } from './content/calendar-entries';

/**
 * Announcements (with confirmations), events (with their publication state machine), calendar
 * entries and event types, articles, and the learning content achievements link to: handbooks,
 * courses, journeys, certificates.
 */
export const contentModule: SandboxModule = {
  name: 'content',
  api(router, ctx) {
    registerAnnouncements(router, ctx);
    registerConfirmations(router, ctx);
    registerEvents(router, ctx);
    registerCalendarEntries(router, ctx);
    registerCalendarEventTypes(router, ctx);
    registerLearning(router, ctx);
  },
  control(app, ctx) {
    registerContentControl(app, ctx);
  },
  start(ctx) {
    ctx.onTick((now) => publishDueEvents(ctx, now));
  },
  seed(ctx, options) {
    if (options.seed !== 'empty') seedContent(ctx);
  },
};
