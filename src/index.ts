/**
 * intrabot's public API for bot authors: `defineBot`, the context and message types, and zod for
 * config schemas (one copy, so a bot's schema is the runtime's).
 */
export { z } from 'zod';
export { defineBot } from './bots/define-bot';
export type { BotDefinition, BotEvent, CommandInvocation, JobRun, ReportDelivery } from './bots/define-bot';
export type { BotContext, OutgoingMessage, SendReceipt, TargetRef, BotStore, BotLogger } from './bots/context';
export { buildRuntime } from './runtime/build-runtime';
export type { Runtime, RuntimeDeps } from './runtime/build-runtime';
export { loadConfig } from './runtime/config';
export type { RuntimeConfig, TenantConfig } from './runtime/config';
export { createSandbox } from './sandbox/sandbox';
export { createApiClient } from './api/create-api-client';
export { intrabotPlugin } from './runtime/plugin';
export { handleFrameworkError, handleNotFound } from './runtime/error-handler';
export { createSystemClock } from './clock';
