/**
 * Every Redis key of a store starts with its prefix (one deployment shares one prefix; tests use a random
 * one). Layout:
 * - `<p>:schema_version`, `<p>:migrate_lock`, `<p>:meta` (hash: secret salt)
 * - `<p>:q:<queue>:` + `seq` (counter), `e:<id>` (entry hash), `t:<target>` (list: the target's line),
 *   `ready` (zset: target -> when its head is available), `live` / `dead` (zsets: id -> seq)
 * - `<p>:dd:<key>` (dedupe: expiry time), `<p>:claim:<key>` ("<expiry> <owner>"), `<p>:rate:<key>` (zset log),
 *   `<p>:rate-limit:<key>` (the platform's reported limit)
 * - `<p>:kv:<namespace>:<key>` (JSON {v, e}), `<p>:kvidx:<namespace>` (zset of keys, for prefix listing)
 * - `<p>:secrets` (hash: name -> sealed value)
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  get schemaVersion(): string {
    return `${this.prefix}:schema_version`;
  }
  get migrateLock(): string {
    return `${this.prefix}:migrate_lock`;
  }
  get meta(): string {
    return `${this.prefix}:meta`;
  }
  get secrets(): string {
    return `${this.prefix}:secrets`;
  }
  queue(name: string): string {
    return `${this.prefix}:q:${name}:`;
  }
  dedupe(key: string): string {
    return `${this.prefix}:dd:${key}`;
  }
  claim(key: string): string {
    return `${this.prefix}:claim:${key}`;
  }
  rate(key: string): string {
    return `${this.prefix}:rate:${key}`;
  }

  rateLimit(key: string): string {
    return `${this.prefix}:rate-limit:${key}`;
  }
  // the namespace is URI-encoded so that a ':' in it cannot make two namespaces' keys meet
  kv(namespace: string, key: string): string {
    return `${this.prefix}:kv:${encodeURIComponent(namespace)}:${key}`;
  }
  kvIndex(namespace: string): string {
    return `${this.prefix}:kvidx:${encodeURIComponent(namespace)}`;
  }
}

/**
 * Expiry is decided by comparing stored times with the injected clock (passed to Lua as `now`); a Redis
 * PEXPIRE this much longer only collects the garbage.
 */
export const GC_MARGIN_MS = 60 * 60 * 1000;
