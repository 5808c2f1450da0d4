export * from './signature';
export * from './envelope';
export * from './events';
export * from './payload-parts';
export * from './payloads';
export * from './report';
export * from './subscription';
