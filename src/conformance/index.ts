export * from './check';
export * from './conformance-checks';
export * from './conformance-session';
export * from './expect';
export * from './parity-table';
export * from './receiver';
export * from './run-conformance';
export * from './sandbox-control';
export { checkFirstPage } from './checks';
