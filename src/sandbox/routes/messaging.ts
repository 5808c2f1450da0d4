import type { SandboxModule } from '../module';
import { seedMessaging } from '../seed/messaging';
import { registerIncomingManagement } from './messaging/incoming-management';
import { registerIncomingTrigger } from './messaging/incoming-trigger';
import { registerMessageApi } from './messaging/message-api';
import { registerMessageControl } from './messaging/message-control';

/**
 * Messaging (spec: Incoming webhooks; Other endpoints that exist): incoming webhooks and their
 * management, bot direct messages, notifications, chat-message pins, feedback, and the control API's
 * read-back of chat rooms and of every message received.
 */
export const messagingModule: SandboxModule = {
  name: 'messaging',
  api(router, ctx) {
    registerIncomingTrigger(router, ctx);
    registerIncomingManagement(router, ctx);
    registerMessageApi(router, ctx);
  },
  control(app, ctx) {
    registerMessageControl(app, ctx);
  },
  seed(ctx, options) {
    if (options.seed !== 'empty') seedMessaging(ctx);
  },
};
