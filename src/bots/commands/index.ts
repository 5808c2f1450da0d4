export * from './command-spec';
export * from './tokenize';
export * from './parse-command';
export * from './suggest';
export * from './format-help';
export * from './check-permission';
