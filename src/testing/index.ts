/**
 * `intrabot/testing`, two kinds of bot test:
 * - in process, no HTTP (`testBot`): run one handler, command, job, report or alert of a bot against a context
 *   that records what it sends, with stubbed `ctx.api` answers and a clock the test sets;
 * - end to end (`startPair`): a sandbox and a runtime with your bots over real HTTP, driven through the
 *   sandbox's control API (`SandboxControl`: act as employees, move the clock, read what bots sent),
 *   with the seed's named ids (`pair.refs()`) and `pair.settle()` to wait until everything has played out.
 */
export { TEST_HANDLER_TIMEOUT_MS, testBot } from './test-bot/test-bot';
export type { AlertResult, LogLine, TestBot, TestBotOptions } from './test-bot/test-bot';
export type { AlertRequestOptions } from './test-bot/alert-door';
export type { CommandOptions, EventPayloadInput, ReportPayloadInput, TestUser } from './test-bot/deliveries';
export type { Sent, SentMedia } from './test-bot/recording-sink';
export { apiError, StubbedFailure, UnstubbedCallError } from './test-bot/stub-api';
export type { ApiCall, ApiStub, ApiStubs } from './test-bot/stub-api';
export { startPair } from './start-pair';
export type { Pair, StartPairOptions } from './start-pair';
export { SandboxControl } from './sandbox-control';
export type { Item } from './sandbox-control';
export type { SettleOptions } from './settle';
export type { AchievementSeedRefs } from '../sandbox/seed/achievements';
export type { DirectorySeedRefs } from '../sandbox/seed/directory-refs';
export type { SeedRefs } from '../sandbox/seed/seed-refs';
export { freePort } from './free-port';
export { alertSample } from './alert-samples';
