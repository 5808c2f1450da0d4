import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { Webhooks, createNodeMiddleware } from '@octokit/webhooks';
import { Queue } from 'bullmq';
import PgBoss from 'pg-boss';

/**
 * The durable peers of `bench/ingest.ts` (DESIGN.md Targets, event ingest; issue #26): Probot's webhook
 * path. A `node:http` server runs `@octokit/webhooks`' Node middleware, as Probot mounts it: it reads
 * the body, checks the `X-Hub-Signature-256` HMAC with the webhook secret, parses the JSON and awaits
 * the event's handlers before it answers 200. The one handler enqueues the delivery, so a redelivery
 * makes no second job: verify, dedupe, durable queue, 200, what intrabot's receiver does. Two queues:
 * - `bullmq`: BullMQ `queue.add` with the delivery id (`X-GitHub-Delivery`) as job id, on Redis;
 * - `pg-boss`: pg-boss (PostgreSQL; BullMQ has no PostgreSQL backend) `send` with the delivery id as
 *   its singleton key, on a queue of policy `short` (one queued job per key), in a schema of its own.
 * No worker takes the jobs, and pg-boss runs without its supervisor and scheduler: the peer is measured
 * at its cheapest.
 *
 * Run as its own process with Node's default flags, as a Probot app runs (`node --import tsx
 * bench/peer.ts`), spoken to in lines (see `lib/peer-client.ts`): `{"op":"start",...PeerSpec}` →
 * `{"port"}`, `{"op":"cpu"}` → `{"cpuUs"}` (this process's CPU time so far, every thread), `{"op":
 * "jobs"}` → `{"jobs"}` (jobs waiting in the queue). When its stdin ends it closes the server, removes
 * the queue (BullMQ's `obliterate`; pg-boss's schema dropped) and exits.
 */
export type PeerQueue = { kind: 'bullmq'; redisUrl: string } | { kind: 'pg-boss'; databaseUrl: string; schema: string };

export interface PeerSpec {
  /** The webhook secret `X-Hub-Signature-256` is checked with. */
  secret: string;
  queue: PeerQueue;
  /** Unique per run: the queue is removed at the end. */
  queueName: string;
  /** The path the middleware answers on (the same as intrabot's hook path in the bench). */
  path: string;
}

export type PeerMessage = ({ op: 'start' } & PeerSpec) | { op: 'cpu' } | { op: 'jobs' };

/** Where the peer's handler puts a delivery, and how it cleans up. */
interface DurableQueue {
  add(event: string, payload: unknown, deliveryId: string): Promise<void>;
  count(): Promise<number>;
  remove(): Promise<void>;
}

interface Peer {
  port: number;
  queue: DurableQueue;
  close(): Promise<void>;
}

async function bullmq(spec: PeerSpec, redisUrl: string): Promise<DurableQueue> {
  const queue = new Queue(spec.queueName, { connection: { url: redisUrl } });
  // BullMQ connects lazily: fail here, not on the first delivery, when Redis is not there
  await queue.waitUntilReady();
  return {
    add: async (event, payload, deliveryId) => void (await queue.add(event, payload, { jobId: deliveryId })),
    count: () => queue.count(),
    remove: async () => {
      try {
        await queue.obliterate({ force: true });
      } finally {
        await queue.close();
      }
    },
  };
}

async function pgBoss(spec: PeerSpec, databaseUrl: string, schema: string): Promise<DurableQueue> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema, supervise: false, schedule: false });
  boss.on('error', (error: unknown) => process.stderr.write(`pg-boss: ${String(error)}\n`));
  await boss.start();
  await boss.createQueue(spec.queueName, { name: spec.queueName, policy: 'short' });
  return {
    // a second send with the same singleton key answers null and stores nothing
    add: async (_event, payload, deliveryId) => void (await boss.send(spec.queueName, payload as object, { singletonKey: deliveryId })),
    count: () => boss.getQueueSize(spec.queueName),
    remove: async () => {
      try {
        await boss.getDb().executeSql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, []);
      } finally {
        await boss.stop({ graceful: false, wait: true });
      }
    },
  };
}

async function start(spec: PeerSpec): Promise<Peer> {
  const queue = spec.queue.kind === 'bullmq' ? await bullmq(spec, spec.queue.redisUrl) : await pgBoss(spec, spec.queue.databaseUrl, spec.queue.schema);
  const webhooks = new Webhooks({ secret: spec.secret });
  webhooks.onAny(async ({ id, name, payload }) => {
    await queue.add(name, payload, id);
  });
  const middleware = createNodeMiddleware(webhooks, { path: spec.path });
  const server = createServer((request, response) => {
    middleware(request, response).then(
      (handled) => {
        if (!handled) response.writeHead(404).end();
      },
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await queue.remove();
  };
  return { port, queue, close };
}

async function main(): Promise<void> {
  let peer: Peer | undefined;
  const answer = (value: unknown): boolean => process.stdout.write(`${JSON.stringify(value)}\n`);
  try {
    for await (const line of createInterface({ input: process.stdin })) {
      if (!line.trim()) continue;
      const message = JSON.parse(line) as PeerMessage;
      if (message.op === 'start') {
        peer = await start(message);
        answer({ port: peer.port });
      } else if (message.op === 'cpu') {
        const used = process.cpuUsage();
        answer({ cpuUs: used.user + used.system });
      } else {
        answer({ jobs: peer ? await peer.queue.count() : 0 });
      }
    }
  } finally {
    await peer?.close();
  }
}

await main();
