import { redactPath } from '../api/errors';

/** One proxied call as the audit log records it: who, what, outcome; no bodies, no secrets. */
export interface AuditEntry {
  /** The proxy key's name (never the key); `null` when no valid key was presented. */
  key: string | null;
  tenant: string;
  method: string;
  /** Relative to `/api/open/v1`; query string dropped and incoming-webhook tokens redacted. */
  path: string;
  status: number;
  duration_ms: number;
  /** Who answered: the platform, or the proxy itself (401, 403, its own 429, a transport fault). */
  answered_by: 'platform' | 'proxy';
}

/** Where audit lines go; a pino or Fastify logger fits. */
export interface AuditLogger {
  info(details: Record<string, unknown>, message: string): void;
}

/**
 * The audit line of a call. The path loses its query string (a caller may put anything there) and
 * any incoming-webhook URL token.
 */
export function auditEntry(input: Omit<AuditEntry, 'path'> & { path: string }): AuditEntry {
  return { ...input, path: redactPath(input.path) };
}

export function writeAudit(logger: AuditLogger, entry: AuditEntry): void {
  logger.info({ audit: 'proxy', ...entry }, `proxy ${entry.method} ${entry.path} ${entry.status}`);
}
