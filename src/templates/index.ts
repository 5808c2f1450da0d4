export * from './template-engine';
export * from './template-error';
export * from './helpers';
export * from './date-format';
export * from './text-format';
export * from './plain';
export * from './split-message';
