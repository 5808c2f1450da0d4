export * from './award-achievement';
export * from './celebration-job';
export * from './celebrations';
export * from './directory-copy';
export * from './directory-sync';
export * from './department-wall';
