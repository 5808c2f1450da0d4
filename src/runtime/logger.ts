import { redactQueryToken } from '../alerts/input-auth';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

/**
 * Paths pino removes from every log line: credentials in headers and the fields where secrets live
 * (DESIGN.md: secrets are redacted from logs).
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["x-proxy-key"]',
  'req.headers.signature',
  'req.headers.cookie',
  'headers.authorization',
  'token',
  'secret',
  'secret_key',
  'auth_value',
  'url_token',
  '*.token',
  '*.secret',
  '*.auth_value',
];

const PRETTY_MESSAGE = '{msg}{if req.method}: {req.method} {req.url}{end}{if res.statusCode} {res.statusCode}{end}{if responseTime} in {responseTime} ms{end}';

/**
 * Fastify's logger options for a level; `silent` turns logging off (tests). Pretty lines in a
 * terminal, JSON otherwise (for log shippers); `INTRABOT_LOG_FORMAT=json|pretty` decides explicitly.
 * Pretty lines are coloured only on a terminal.
 */
export function loggerOptions(level: string, pretty = prefersPretty(), colour = colourOnStdout()): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    // in a terminal a request is one line: "request completed: POST /hooks/sandbox/ops 200 in 1.2 ms"
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: colour, translateTime: 'HH:MM:ss', ignore: 'pid,hostname,reqId,req,res,responseTime', messageFormat: PRETTY_MESSAGE },
          },
        }
      : {}),
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // tokens travel in URLs (incoming webhooks, alert inputs' ?token=): never log a URL with one, even
    // one that matched no route
    serializers: {
      req: (req: { method: string; url: string }) => ({
        method: req.method,
        url: redactQueryToken(req.url.replace(/\/incoming\/[^/?]+/, '/incoming/[redacted]')),
      }),
    },
  };
}

/**
 * Colour codes only where a terminal shows them: `INTRABOT_LOG_FORMAT=pretty` into a file or a pipe
 * writes plain text (and `NO_COLOR`, https://no-color.org, turns them off anywhere).
 */
function colourOnStdout(): boolean {
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

function prefersPretty(): boolean {
  const format = process.env.INTRABOT_LOG_FORMAT;
  if (format === 'json') return false;
  if (format === 'pretty') return true;
  return process.stdout.isTTY === true;
}

/** Routes polled by health checks and scrapers: their lines only at debug, so info is not a heartbeat log. */
const QUIET_PATHS = new Set(['/livez', '/healthz', '/readyz', '/metrics']);

/**
 * One log line per request, once it is answered: method and URL (through the route's serializers,
 * which redact tokens in URLs), status and time, where Fastify writes two (received, completed); at
 * info, a webhook delivery is one line. Fastify's error lines are kept as they are.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // the completed line carries the request
  }

  /** Fastify writes the raw URL into this message, where no serializer redacts it: the completed line says 404 instead. */
  override routeNotFound(): void {
    // the completed line carries the request and its 404
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const fields = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 100) / 100 };
    if (error) return request.log.error({ ...fields, err: error }, 'request errored');
    const level = QUIET_PATHS.has(request.url.split('?', 1)[0]!) ? 'debug' : 'info';
    request.log[level](fields, 'request completed');
  }
}
