/**
 * The one logger shape inside intrabot: pino's, fields first, then the message (`log.warn({ err }, 'send
 * failed')`). The runtime passes its Fastify (pino) logger wherever one is asked for; a bot's handlers get
 * the message-first `BotLogger` made from it (src/bots/bot-logger.ts).
 */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that writes nothing (a module used alone, in tests). */
export const SILENT_LOGGER: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => SILENT_LOGGER,
};
