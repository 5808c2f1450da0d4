/**
 * Every Redis key of a store starts with its prefix (one deployment shares one prefix; tests use a random
 * one). Layout on one server or Sentinel (unchanged since schema version 1):
 * - `<p>:schema_version`, `<p>:migrate_lock`, `<p>:meta` (hash: secret salt)
 * - `<p>:q:<queue>:` + `seq` (counter), `e:<id>` (entry hash), `t:<target>` (list: the target's line),
 *   `ready` (zset: target -> when its head is available), `live` / `dead` (zsets: id -> seq)
 * - `<p>:dd:<key>` (dedupe: expiry time), `<p>:claim:<key>` ("<expiry> <owner>"), `<p>:rate:<key>` (zset log),
 *   `<p>:rate-limit:<key>` (the platform's reported limit)
 * - `<p>:kv:<namespace>:<key>` (JSON {v, e}), `<p>:kvidx:<namespace>` (zset of keys, for prefix listing)
 * - `<p>:secrets` (hash: name -> sealed value)
 *
 * On Redis Cluster (`hashTags`), a script or transaction may only touch keys of one hash slot, so the keys
 * that are used together carry one hash tag (`{...}`: only what is between the braces picks the slot):
 * - a queue's keys, and the inbox's dedupe keys (its accept checks them in the same script):
 *   `<p>:{<p>:q:<queue>}:` + the same suffixes, `<p>:{<p>:q:inbox}:dd:<key>`
 * - a rate key's log and reported limit: `<p>:{<p>:rate:<key>}` and `<p>:{<p>:rate:<key>}:limit`
 * - a kv namespace's items and index: `<p>:{<p>:kv:<namespace>}:<key>` and `<p>:{<p>:kv:<namespace>}`
 * - the rest are used one key at a time and keep their names.
 * The prefix is inside each tag, so two deployments on one cluster do not share slots, and every key still
 * starts with the prefix (ACL key patterns, SCAN MATCH). Each queue is one slot, so on one master: the
 * inbox's order and exactly-once accept need its entries and dedupe keys together.
 */
export class RedisKeys {
  constructor(
    readonly prefix: string,
    readonly options: { hashTags?: boolean } = {},
  ) {}

  private tagged(name: string): string {
    return this.options.hashTags ? `${this.prefix}:{${this.prefix}:${name}}` : `${this.prefix}:${name}`;
  }

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
    return `${this.tagged(`q:${name}`)}:`;
  }
  dedupe(key: string): string {
    return this.options.hashTags ? `${this.queue('inbox')}dd:${key}` : `${this.prefix}:dd:${key}`;
  }
  claim(key: string): string {
    return `${this.prefix}:claim:${key}`;
  }
  rate(key: string): string {
    return this.tagged(`rate:${key}`);
  }

  rateLimit(key: string): string {
    return this.options.hashTags ? `${this.rate(key)}:limit` : `${this.prefix}:rate-limit:${key}`;
  }
  // the namespace is URI-encoded so that a ':' in it cannot make two namespaces' keys meet (nor a brace end a tag)
  kv(namespace: string, key: string): string {
    return `${this.tagged(`kv:${encodeURIComponent(namespace)}`)}:${key}`;
  }
  kvIndex(namespace: string): string {
    return this.options.hashTags ? this.tagged(`kv:${encodeURIComponent(namespace)}`) : `${this.prefix}:kvidx:${encodeURIComponent(namespace)}`;
  }
}

/**
 * Expiry is decided by comparing stored times with the injected clock (passed to Lua as `now`); a Redis
 * PEXPIRE this much longer only collects the garbage.
 */
export const GC_MARGIN_MS = 60 * 60 * 1000;
