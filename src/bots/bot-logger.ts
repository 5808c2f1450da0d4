import type { Logger } from '../log';
import type { BotLogger } from './context';

/**
 * A bot's `ctx.log`, message first as bot authors write it, over the runtime's logger (fields first): the
 * one adapter between the two shapes. Every line carries the bindings of `log` (bot, tenant, delivery).
 *
 * @example botLogger(log.child({ bot: 'kudos', tenant: 'acme' })).info('kudos given', { to: 12 })
 */
export function botLogger(log: Logger): BotLogger {
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}
