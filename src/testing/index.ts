export { startPair } from './start-pair';
export type { Pair, StartPairOptions } from './start-pair';
export { SandboxControl } from './sandbox-control';
export type { Item } from './sandbox-control';
