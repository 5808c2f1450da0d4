import { describe, expect, it } from 'vitest';
import { parseRedisUrl, redisConnectionOf, RedisStoreConfigSchema } from '../../src/store/redis/redis-config';
import { openStore } from '../../src/store';
import { AdjustableClock } from '../../src/clock';

const problemOf = (url: string): string => {
  const parsed = parseRedisUrl(url);
  if (parsed.ok) throw new Error(`expected a problem with ${url}`);
  return parsed.problem;
};

describe('Redis URLs', () => {
  it('hands a redis:// or rediss:// URL to ioredis as it is (one server, as before)', () => {
    expect(parseRedisUrl('redis://:pw@127.0.0.1:6379/2')).toEqual({ ok: true, connection: { mode: 'single', url: 'redis://:pw@127.0.0.1:6379/2' } });
    expect(parseRedisUrl('rediss://cache.internal:6380')).toMatchObject({ connection: { mode: 'single' } });
  });

  it("reads redis+sentinel:// as the sentinels, the master name as the path, the password as the data nodes' and db and sentinel_password as parameters", () => {
    expect(parseRedisUrl('redis+sentinel://app:s%40cret@10.0.0.1:26379,10.0.0.2,[::1]:26380/mymaster?db=3&sentinel_password=sp')).toEqual({
      ok: true,
      connection: {
        mode: 'sentinel',
        sentinels: [
          { host: '10.0.0.1', port: 26379 },
          { host: '10.0.0.2', port: 26379 },
          { host: '::1', port: 26380 },
        ],
        name: 'mymaster',
        username: 'app',
        password: 's@cret',
        sentinelPassword: 'sp',
        db: 3,
        tls: false,
      },
    });
    expect(parseRedisUrl('rediss+sentinel://:pw@s1/m')).toMatchObject({ connection: { tls: true, password: 'pw', db: 0 } });
  });

  it('reads redis+cluster:// as the nodes to start from (port 6379 when left out)', () => {
    expect(parseRedisUrl('redis+cluster://:pw@n1:7000,n2:7001,n3')).toEqual({
      ok: true,
      connection: {
        mode: 'cluster',
        nodes: [
          { host: 'n1', port: 7000 },
          { host: 'n2', port: 7001 },
          { host: 'n3', port: 6379 },
        ],
        password: 'pw',
        tls: false,
      },
    });
  });

  it('says what is wrong with a sentinel or cluster URL, never repeating its password', () => {
    const cases = [
      ['redis+sentinel://:hunter2@s1:26379,s2:26379', 'the path is the master name'],
      ['redis+sentinel://:hunter2@s1:26379,s2:notaport/m', 'every host must be host:port'],
      ['redis+sentinel://:hunter2@/m', 'every host must be host:port'],
      ['redis+sentinel://:hunter2@s1/m?db=x', 'db must be a database number'],
      ['redis+sentinel://:hunter2@s1/m?timeout=5', 'unknown parameter "timeout"'],
      ['redis+cluster://:hunter2@n1:7000/2', 'a cluster URL has no path'],
      ['redis+cluster://:hunter2@n1:7000?db=1', 'unknown parameter "db"'],
      ['redis+clusterz://:hunter2@n1:7000', 'expected redis://, rediss://, redis+sentinel:// or redis+cluster://'],
    ] as const;
    for (const [url, problem] of cases) {
      const said = problemOf(url);
      expect(said).toContain(problem);
      expect(said).not.toContain('hunter2');
    }
  });
});

describe('the Redis store config', () => {
  it('takes the servers as a mapping: sentinels with the master name, or cluster nodes', () => {
    const sentinel = RedisStoreConfigSchema.parse({ kind: 'redis', servers: { sentinels: ['s1:26379', { host: 's2' }], name: 'm', password: 'pw' } });
    expect(redisConnectionOf(sentinel)).toMatchObject({
      mode: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'm',
      db: 0,
    });
    const cluster = RedisStoreConfigSchema.parse({ kind: 'redis', servers: { cluster: ['n1:7000'] }, minReplicas: 1 });
    expect(redisConnectionOf(cluster)).toMatchObject({ mode: 'cluster', nodes: [{ host: 'n1', port: 7000 }] });
    expect(cluster).toMatchObject({ minReplicas: 1, waitTimeoutMs: 1000 });
  });

  it('names the field that is wrong', async () => {
    const clock = new AdjustableClock();
    const open = (config: Record<string, unknown>) =>
      openStore({ kind: 'redis', ...config }, { clock }).then(
        () => new Error('opened'),
        (e: unknown) => e as Error,
      );
    expect((await open({ servers: { sentinels: ['s1'] } })).message).toMatch(/^store\.servers\.name: the master name/);
    expect((await open({ servers: { sentinels: ['s1'], cluster: ['n1'], name: 'm' } })).message).toMatch(/^store\.servers\.cluster: give either sentinels/);
    expect((await open({ servers: { sentinels: ['s1:99999'], name: 'm' } })).message).toMatch(/^store\.servers\.sentinels\.0: expected host:port/);
    expect((await open({ servers: { cluster: ['n1'], db: 2 } })).message).toMatch(/^store\.servers\.db: Redis Cluster has database 0 only/);
    expect((await open({ url: 'redis://x', servers: { cluster: ['n1'] } })).message).toMatch(/^store\.url: give either url or servers/);
    expect((await open({ url: 'redis://x', minReplicas: -1 })).message).toMatch(/^store\.minReplicas/);
    expect((await open({ url: 'redis://x', prefix: 'a{b}' })).message).toMatch(/^store\.prefix: no \{ or \}/);
    const bad = await open({ url: 'redis+sentinel://:hunter2@s1:26379' });
    expect(bad.message).toMatch(/^store\.url: the path is the master name/);
    expect(bad.message).not.toContain('hunter2');
  });
});

describe('a Redis store whose servers do not answer', () => {
  it('names the sentinels and the master, not the password', async () => {
    const started = Date.now();
    const error = await openStore({ kind: 'redis', url: 'redis+sentinel://:hunter2@127.0.0.1:1,127.0.0.1:2/mymaster' }, { clock: new AdjustableClock() }).catch(
      (e: unknown) => e as Error,
    );
    expect(error).toMatchObject({ code: 'store_unavailable' });
    expect(String((error as Error).message)).toBe('cannot reach Redis at sentinels 127.0.0.1:1,127.0.0.1:2 (master "mymaster")');
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 15_000);
});
