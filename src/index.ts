/**
 * intrabot's public API for bot authors (`import { defineBot, z } from 'intrabot'`): `defineBot`, the
 * context and message types, the errors a handler tells apart with `instanceof`, the platform's
 * resource and report types, and zod for config schemas (one copy, so a bot's schema is the
 * runtime's). Helpers for common bot chores are in `intrabot/helpers`; testing in `intrabot/testing`.
 * Nothing else of the package is public: its export map keeps deep imports out.
 */
export { z } from 'zod';

// writing a bot
export { defineBot, defineStep, BotDefinitionError } from './bots/define-bot';
export type {
  BotDefinition,
  BotDefinitionInput,
  BotEvent,
  CommandHandler,
  CommandInvocation,
  CommandSpec,
  ConfigOf,
  ConversationStep,
  EventHandler,
  JobHandler,
  JobRun,
  ReportDelivery,
  ReportHandler,
} from './bots/define-bot';
export type {
  AnnouncementInput,
  BotApi,
  BotContext,
  BotLogger,
  BotStore,
  BotTenant,
  EventInput,
  NotificationInput,
  OutgoingMessage,
  SendReceipt,
  TargetRef,
} from './bots/context';
export { CronSchema, DurationSchema, SlugSchema, TimezoneSchema } from './bots/manifest-parts';

// conversations: ask, and go on when the answer comes (docs/conversations.md)
export { yesNo, choice, freeText, type Answer, type AnswerOf, type AnswerResult, type AnswerSpec } from './bots/conversations/answers';
export type { AskReceipt, AskRequest } from './bots/conversations/ask';
export type { PendingConversation } from './bots/conversations/pending';

// middleware: around every handler run (docs/middleware.md)
export { defineLocal, HOLD_SENDS_UNTIL, type HandlerInput, type LocalKey, type Middleware, type Next } from './bots/middleware';
export { cooldown, type CooldownOptions } from './bots/cooldown';
export { quietHours, type QuietHoursOptions } from './bots/quiet-hours';
export { auditLog, type AuditRecord } from './bots/audit-log';

// events and reports as handlers receive them
export { EVENT_NAMES, REPORT_NAMES } from './webhooks/events';
export type { EventName, ReportName } from './webhooks/events';
export type { AchievementAwardedPayload, AnnouncementConfirmedPayload, CommentPayload, PayloadOf, PostCreatedPayload } from './webhooks/payloads';
export { REPORT_SCHEMAS, TodoListStatsReportSchema } from './webhooks/report';
export type { ReportPayloadOf, TodoListStatsReport } from './webhooks/report';

// the platform's resources, as `ctx.api` reads them (Post, User, Announcement, Achievement...)
export type * from './api/schemas';

// errors, told apart with `instanceof` (never by message): a bot's imports and the runtime's are one module
export { ConfigError, ERROR_CODES, IntrabotError, InvalidInputError, isIntrabotError } from './errors';
export type { ErrorCode, IntrabotErrorOptions } from './errors';
export {
  ApiBadResponseError,
  ApiError,
  ApiForbiddenError,
  ApiHttpError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiRateLimitedError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnauthorizedError,
  ApiValidationError,
  ForeignLinkError,
  InvalidTokenError,
  UncertainWriteError,
} from './api/errors';
export type { ApiErrorOptions, RequestContext, TimeoutPhase } from './api/errors';
export { TemplateError } from './templates/template-error';

// running intrabot inside your own process
export { buildRuntime } from './runtime/build-runtime';
export type { Runtime, RuntimeDeps } from './runtime/build-runtime';
export { createSnsFetch } from './alerts/sns/sns-fetch';
export type { SnsFetch, SnsFetchLimits } from './alerts/sns/sns-fetch';
export { loadConfig } from './runtime/config/config';
export type { RuntimeConfig, TenantConfig } from './runtime/config/config';
export { createSandbox } from './sandbox/sandbox';
export type { Sandbox, SandboxOptions } from './sandbox/sandbox';
export { createApiClient } from './api/create-api-client';
export type { IntrabotApi } from './api/create-api-client';
export type { ApiClientOptions } from './api/client';
export { intrabotPlugin } from './runtime/plugin';
export { startTracing } from './tracing/start-tracing';
export type { TracingHandle, TracingLogger } from './tracing/start-tracing';
export { handleFrameworkError, handleNotFound } from './runtime/error-handler';
export { AdjustableClock, createSystemClock } from './clock';
export type { AdjustableClockOptions, Clock, TimerHandle } from './clock';
