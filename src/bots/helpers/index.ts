export * from './award-achievement';
export * from './celebration-job';
export * from './celebrations';
export * from './directory-copy';
export * from './directory-sync';
export * from './department-wall';
export * from './alertmanager-silences';
export * from './silence-request';
export { markdownToText } from '../../templates/markdown-text';
