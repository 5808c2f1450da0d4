/**
 * `intrabot/testing`: a sandbox and a runtime with your bots, over real HTTP, for tests (`startPair`);
 * the sandbox's control API (`SandboxControl`: act as employees, move the clock, read what bots sent);
 * the seed's ids (`directoryRefsOf`).
 */
export { startPair } from './start-pair';
export type { Pair, StartPairOptions } from './start-pair';
export { SandboxControl } from './sandbox-control';
export type { Item } from './sandbox-control';
export { achievementRefsOf, directoryRefsOf } from './seed-refs';
export type { AchievementSeedRefs, DirectorySeedRefs, HasSandbox } from './seed-refs';
