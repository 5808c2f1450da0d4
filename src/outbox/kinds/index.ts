// the kinds of send: each kind's own file, the registry that lists them (`SEND_KINDS`), and what they share
export * from './send-kind';
export * from './send-kinds';
export * from './entry-fields';
export * from './sent-media';
