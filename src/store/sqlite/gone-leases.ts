import type { Database } from 'better-sqlite3';
import { ownerIsGone } from '../claim-owner';
import { newId } from '../queue';

/**
 * A lease token that names its holder: `<owner>#<random>` (the owner as `newClaimOwner` writes it). A
 * token is otherwise opaque: only equality is checked, so tokens of an older version (a bare random id)
 * keep working and are simply never judged.
 */
export function leaseToken(owner: string | undefined): string {
  return owner === undefined ? newId() : `${owner}#${newId()}`;
}

/** The owner a lease token names, or undefined for a token that names none. */
export function leaseOwner(token: string): string | undefined {
  const at = token.lastIndexOf('#');
  return at > 0 ? token.slice(0, at) : undefined;
}

const TABLES = ['queue_entries', 'inbox_entries'] as const;

interface HeldLease {
  table: (typeof TABLES)[number];
  seq: number;
  token: string;
}

/**
 * At open: the inbox and outbox entries a process that is gone still holds leases on (it crashed or was
 * killed mid-send, and this process on the same host is its restart) are made due now instead of when
 * their leases run out, up to a minute later. Their tokens stay, so taking one again counts a lost lease
 * as an expiry would (an entry that keeps killing its process still goes dead). Read first, written only
 * when there is something to release (an open takes no write lock for nothing); a lease taken again in
 * between has another token and is left alone. Returns how many were released.
 */
export function releaseLeasesOfGoneOwners(db: Database, now: number, isGone: (owner: string) => boolean = ownerIsGone): number {
  const verdicts = new Map<string, boolean>();
  const gone = heldLeases(db, now).filter((lease) => {
    const owner = leaseOwner(lease.token);
    if (owner === undefined) return false;
    if (!verdicts.has(owner)) verdicts.set(owner, isGone(owner));
    return verdicts.get(owner) === true;
  });
  if (gone.length === 0) return 0;
  const release = db.transaction((): number => {
    let released = 0;
    for (const lease of gone) {
      const due = db.prepare(`UPDATE ${lease.table} SET lease_until = @now, available_at = @now WHERE seq = @seq AND lease_token = @token AND dead = 0`);
      released += due.run({ now, seq: lease.seq, token: lease.token }).changes;
    }
    return released;
  });
  return release.immediate();
}

function heldLeases(db: Database, now: number): HeldLease[] {
  return TABLES.flatMap((table) =>
    (
      db.prepare(`SELECT seq, lease_token AS token FROM ${table} WHERE dead = 0 AND lease_token IS NOT NULL AND lease_until > ?`).all(now) as Omit<
        HeldLease,
        'table'
      >[]
    ).map((row) => ({ table, ...row })),
  );
}
