import type { Clock } from '../../clock';
import type { StoreBackend } from '../backend';
import type { JsonValue } from '../json';
import { newEntryId } from '../queue';
import { lineHeads } from '../queue-records';
import { recordsOfType, remainingMs, type OutboxRecord, type StoreRecord } from '../store-records';
import { StoreUnavailableError } from '../store-errors';
import { GC_MARGIN_MS, type RedisKeys } from './keys';
import type { RedisClient } from './redis-client';

type Transfer = Required<Pick<StoreBackend, 'dump' | 'restore'>>;

/**
 * The Redis store's dump and restore, on one server or Sentinel. Redis has no snapshot to read from: the
 * dump scans the keys, so it is consistent only with the runtime stopped. The restore is one MULTI: all or
 * nothing. Cluster (keys spread over masters, in hash-tagged names) is refused, naming the problem.
 */
export function redisTransfer(redis: RedisClient, keys: RedisKeys, clock: Clock): Transfer {
  const refuseCluster = (): void => {
    if (keys.options.hashTags) throw new StoreUnavailableError('store export and import do not support Redis Cluster yet: move through a single Redis server');
  };
  return {
    async *dump() {
      refuseCluster();
      yield* readAll(redis, keys, clock.now());
    },
    async restore(records) {
      refuseCluster();
      await writeAll(redis, keys, records, clock.now());
    },
  };
}

/** Keys under `pattern`'s literal start (glob characters in the prefix escaped). */
async function scanKeys(redis: RedisClient, start: string): Promise<string[]> {
  const found: string[] = [];
  const match = `${start.replace(/[*?[\]\\]/g, '\\$&')}*`;
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found.sort();
}

async function* readAll(redis: RedisClient, keys: RedisKeys, now: number): AsyncGenerator<StoreRecord> {
  const salt = await redis.hget(keys.meta, 'secret_salt');
  if (salt) yield { type: 'secret_salt', salt };
  const secrets = await redis.hgetall(keys.secrets);
  for (const name of Object.keys(secrets).sort()) yield { type: 'secret', name, sealed: secrets[name]! };
  const indexStart = keys.kvIndex('');
  for (const index of await scanKeys(redis, indexStart)) {
    const namespace = decodeURIComponent(index.slice(indexStart.length));
    for (const key of await redis.zrange(index, 0, -1)) {
      const raw = await redis.get(keys.kv(namespace, key));
      if (raw === null) continue;
      const stored = JSON.parse(raw) as { v: JsonValue; e: number | null };
      const ttl = stored.e === null ? null : remainingMs(stored.e, now);
      if (ttl !== undefined) yield { type: 'kv', namespace, key, value: stored.v, ttl_ms: ttl };
    }
  }
  const claimStart = keys.claim('');
  for (const full of await scanKeys(redis, claimStart)) {
    const value = (await redis.get(full)) ?? '';
    const sep = value.indexOf(' ');
    const ttl = sep > 0 ? remainingMs(Number(value.slice(0, sep)), now) : undefined;
    if (ttl !== undefined) yield { type: 'claim', key: full.slice(claimStart.length), owner: value.slice(sep + 1), ttl_ms: ttl };
  }
  const dedupeStart = keys.dedupe('');
  for (const full of await scanKeys(redis, dedupeStart)) {
    const ttl = remainingMs(Number((await redis.get(full)) ?? 0), now);
    if (ttl !== undefined) yield { type: 'dedupe', key: full.slice(dedupeStart.length), ttl_ms: ttl };
  }
  for (const entry of await queueEntries(redis, keys.queue('inbox'))) yield { type: 'inbox', ...fieldsOf(entry) };
  for (const entry of await queueEntries(redis, keys.queue('outbox'))) yield { type: 'outbox', id: entry.id!, target: entry.target!, ...fieldsOf(entry) };
}

/** A queue's entry hashes: the live ones line by line, in each target's list order, then the dead letters. */
async function queueEntries(redis: RedisClient, q: string): Promise<Record<string, string>[]> {
  const read = async (ids: string[]): Promise<Record<string, string>[]> => {
    const out: Record<string, string>[] = [];
    for (const id of ids) {
      const h = await redis.hgetall(`${q}e:${id}`);
      if (h.id) out.push(h);
    }
    return out;
  };
  const live = await read(await redis.zrange(`${q}live`, 0, -1));
  const targets = [...new Set(live.map((h) => h.target ?? ''))];
  const inLines: Record<string, string>[] = [];
  for (const target of targets) inLines.push(...(await read(await redis.lrange(`${q}t:${target}`, 0, -1))));
  return [...inLines, ...(await read(await redis.zrange(`${q}dead`, 0, -1)))];
}

function fieldsOf(h: Record<string, string>): Omit<Extract<StoreRecord, { type: 'inbox' }>, 'type'> {
  return {
    state: h.dead === '1' ? 'dead' : 'waiting',
    payload: h.payload ?? '',
    attempts: Number(h.att ?? 0),
    last_error: h.err ? h.err : null,
    dead_reason: h.reason ? h.reason : null,
    not_before: Number(h.nb ?? 0),
    enqueued_at: Number(h.enq ?? 0),
  };
}

async function writeAll(redis: RedisClient, keys: RedisKeys, records: readonly StoreRecord[], now: number): Promise<void> {
  const tx = redis.multi();
  for (const r of recordsOfType(records, 'secret_salt')) tx.hset(keys.meta, 'secret_salt', r.salt);
  for (const r of recordsOfType(records, 'secret')) tx.hset(keys.secrets, r.name, r.sealed);
  for (const r of recordsOfType(records, 'kv')) {
    const stored = JSON.stringify({ v: r.value, e: r.ttl_ms === null ? null : now + r.ttl_ms });
    if (r.ttl_ms === null) tx.set(keys.kv(r.namespace, r.key), stored);
    else tx.set(keys.kv(r.namespace, r.key), stored, 'PX', r.ttl_ms + GC_MARGIN_MS);
    tx.zadd(keys.kvIndex(r.namespace), 0, r.key);
  }
  for (const r of recordsOfType(records, 'claim')) tx.set(keys.claim(r.key), `${now + r.ttl_ms} ${r.owner}`, 'PX', r.ttl_ms + GC_MARGIN_MS);
  for (const r of recordsOfType(records, 'dedupe')) tx.set(keys.dedupe(r.key), String(now + r.ttl_ms), 'PX', r.ttl_ms + GC_MARGIN_MS);
  // each inbox entry is its own target, under an id of this store's making
  const inbox = recordsOfType(records, 'inbox').map((r) => {
    const id = newEntryId(now);
    return { ...r, id, target: id };
  });
  await queueWrites(redis, tx, keys.queue('inbox'), inbox);
  await queueWrites(redis, tx, keys.queue('outbox'), recordsOfType(records, 'outbox'));
  await tx.exec();
}

/** The entries as the queue scripts lay them out (`queue-scripts.ts`): hash, line, live / dead zset by seq, and each line's head in `ready`. */
async function queueWrites(redis: RedisClient, tx: ReturnType<RedisClient['multi']>, q: string, entries: Omit<OutboxRecord, 'type'>[]): Promise<void> {
  if (entries.length === 0) return;
  let seq = Number((await redis.get(`${q}seq`)) ?? 0);
  const heads = lineHeads(entries);
  entries.forEach((r, i) => {
    seq += 1;
    const dead = r.state === 'dead';
    tx.hset(`${q}e:${r.id}`, {
      id: r.id,
      target: r.target,
      payload: r.payload,
      seq,
      nb: r.not_before,
      lu: 0,
      lt: '',
      att: r.attempts,
      err: r.last_error ?? '',
      reason: r.dead_reason ?? '',
      enq: r.enqueued_at,
      dead: dead ? '1' : '0',
    });
    if (dead) {
      tx.zadd(`${q}dead`, seq, r.id);
      return;
    }
    tx.rpush(`${q}t:${r.target}`, r.id);
    tx.zadd(`${q}live`, seq, r.id);
    if (heads[i]) tx.zadd(`${q}ready`, r.not_before, r.target);
  });
  tx.set(`${q}seq`, String(seq));
}
