import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SHARED = new URL('../fixtures/alerts/', import.meta.url);
const OURS = new URL('./fixtures/', import.meta.url);

/** A body from `test/fixtures/alerts/` (shared, read-only), parsed fresh on every call. */
export function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(fileURLToPath(new URL(name, SHARED)), 'utf8')) as Record<string, unknown>;
}

/** A body from `test/alerts/fixtures/` (our derived fixtures). */
export function ownFixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(fileURLToPath(new URL(name, OURS)), 'utf8')) as Record<string, unknown>;
}
