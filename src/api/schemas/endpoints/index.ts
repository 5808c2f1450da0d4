export * from './catalog';
export * from './match-endpoint';
export * from './required-scopes';
