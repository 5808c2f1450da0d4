import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadPageAssets, pageSecurityHeaders, publicDirOf, sendPageAsset, type PageAssets } from '../../web/page-assets';
import type { SandboxContext } from '../context';
import { z } from 'zod';
import { notFound, validationError } from '../http/sandbox-error';
import { idParam, validate } from '../http/validate';
import { AlertSenders, SendersSchema } from './alert-senders';
import { sendJsonIndex, wantsJson } from '../root-page';
import { requestOrigin } from '../serialize/media';
import { playgroundIntranet } from './intranet-views';
import { runtimeTrail } from './runtime-trail';
import { playgroundDirectory, playgroundWall, type PlaygroundDelivery, type PlaygroundWall } from './playground-views';

const SendAlertSchema = z.strictObject({ id: z.string().min(1) });
const IntranetQuerySchema = z.object({ user_id: z.coerce.number().int().positive().optional() });

export interface PlaygroundOptions {
  /** The page's files (default: the package's `src/sandbox/playground/public`, beside the shared ones). */
  assets?: PageAssets;
  /** How often the live stream looks for a change (real time; default 250 ms). */
  pollMs?: number;
}

/**
 * The playground (issue #29): the emulated intranet in a browser at the sandbox's own address. Its page
 * and modules are static files (Preact and htm, the console's components and style, no build step); what
 * it shows comes from the control API, which its actions go through too, so the bots receive the same
 * signed deliveries a test's would. The control API's guard applies (loopback callers, own Host, own
 * Origin for changes): the page is served from the same origin, so its own changes pass.
 *
 * - `GET /` the page (a caller asking for JSON gets the index, root-page.ts), its files beside it;
 * - `GET /_sandbox/playground` the walls, chat rooms, people, bot users and the clock;
 * - `GET /_sandbox/playground/walls/:id` a wall's posts with comments and the deliveries they caused;
 * - `GET /_sandbox/playground/intranet?user_id=` announcements, events, calendar entries, forms, invitations;
 * - `PUT /_sandbox/playground/senders` the runtime's sample alerts, `POST .../send-alert {id}` sends one;
 * - `GET /_sandbox/playground/live` server-sent events: `change` when the platform's state changed,
 *   `clock` when its clock moved (and every second while it runs).
 */
export function registerPlayground(app: FastifyInstance, ctx: SandboxContext, options: PlaygroundOptions = {}): void {
  const assets = options.assets ?? loadPageAssets(publicDirOf('sandbox/playground/public'));
  const streams = new Set<FastifyReply>();
  const senders = new AlertSenders();
  // what the page shows changed: the platform's state, or the menu of sample alerts
  const stateVersion = (): number => ctx.db.version + senders.version;
  const send = (name: string, request: FastifyRequest, reply: FastifyReply) => {
    void reply.headers(pageSecurityHeaders(assets.csp));
    return sendPageAsset(assets, name, request, reply) ?? reply.code(404).send({ error: 'not_found', message: `No file ${name}` });
  };
  app.get('/', async (request, reply) => (wantsJson(request) ? sendJsonIndex(request, reply) : send('index.html', request, reply)));
  for (const name of assets.files.keys()) {
    if (name !== 'index.html') app.get(`/${name}`, async (request, reply) => send(name, request, reply));
  }

  app.get('/_sandbox/playground', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ ...playgroundDirectory(ctx), senders: senders.list(), version: stateVersion() }),
  );
  // the runtime beside the sandbox offers its alert inputs' samples when it starts (runtime-facade.ts)
  app.put('/_sandbox/playground/senders', async (request, reply) => {
    senders.replace(validate(SendersSchema, request.body).senders);
    return reply.code(204).send();
  });
  app.post('/_sandbox/playground/send-alert', async (request) => {
    const { id } = validate(SendAlertSchema, request.body);
    const sent = await senders.send(id);
    if (!sent) throw validationError('id', `no sample alert ${id}: the runtime offers its samples when it starts`);
    return sent;
  });
  app.get('/_sandbox/playground/intranet', async (request, reply) => {
    const { user_id: userId } = validate(IntranetQuerySchema, request.query);
    return reply.header('cache-control', 'no-store').send(playgroundIntranet(ctx, userId));
  });
  app.get('/_sandbox/playground/walls/:id', async (request, reply) => {
    const wall = playgroundWall(ctx, idParam((request.params as { id?: string }).id), requestOrigin(request));
    if (!wall) throw notFound();
    return reply.header('cache-control', 'no-store').send(await withHandling(wall));
  });
  app.get('/_sandbox/playground/live', (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    streams.add(reply);
    const write = (event: string, data: unknown) => reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    let version = stateVersion();
    let told = { clock: ctx.now(), at: Date.now() };
    const tellClock = () => {
      told = { clock: ctx.now(), at: Date.now() };
      write('clock', { now: ctx.nowIso(), epoch_ms: told.clock });
    };
    tellClock();
    const timer = setInterval(() => {
      if (stateVersion() !== version) {
        version = stateVersion();
        write('change', { version });
      }
      // every second, and at once when the clock jumped (moved or set through the control API)
      const elapsed = Date.now() - told.at;
      if (elapsed >= 1_000 || Math.abs(ctx.now() - told.clock - elapsed) > 500) tellClock();
    }, options.pollMs ?? 250);
    request.raw.on('close', () => {
      clearInterval(timer);
      streams.delete(reply);
    });
  });
  app.addHook('preClose', async () => {
    for (const reply of streams) reply.raw.end();
    streams.clear();
  });
}

/** The wall's deliveries with what their runtimes did with them (handled, ignored, failing, dead). */
async function withHandling(wall: PlaygroundWall): Promise<PlaygroundWall> {
  const lines: PlaygroundDelivery[] = wall.posts.flatMap((post) => [...post.deliveries, ...post.comments.flatMap((c) => c.deliveries)]);
  const trail = await runtimeTrail(lines.flatMap((line) => (line.runtime ? [line.runtime] : [])));
  for (const line of lines) {
    const handling = trail.get(line.delivery_id);
    if (handling) line.handling = handling;
  }
  return wall;
}
