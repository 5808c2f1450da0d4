import type { BotContext } from 'intrabot';
import { normalizeName } from './parse-kudos';

/** One employee as the kudos bot remembers them. */
export interface Person {
  id: number;
  name: string;
  email: string;
  /** Department id and name; null when the user belongs to none. */
  department: { id: number; name: string } | null;
}

const DIRECTORY_KEY = 'directory';

/** The directory: every registered user (`GET /users`, all pages), cached in the bot's store. */
export async function loadDirectory(
  ctx: BotContext<unknown>,
  ttlMs: number,
  options: { fresh?: boolean } = {},
): Promise<{ people: Person[]; cached: boolean }> {
  if (!options.fresh) {
    const cached = await ctx.store.get<Person[]>(DIRECTORY_KEY);
    if (cached) return { people: cached, cached: true };
  }
  const people: Person[] = [];
  for await (const user of ctx.api.users.all({ per_page: 50 })) {
    if (user.type !== 'default') continue;
    const department = user.groups.find((g) => g.type === 'department');
    people.push({
      id: Number(user.id),
      name: user.name,
      email: user.email,
      department: department ? { id: Number(department.id), name: department.name } : null,
    });
  }
  await ctx.store.set(DIRECTORY_KEY, people, { ttlMs });
  return { people, cached: false };
}

/**
 * The people whose full name is `name` (case, accents and spacing aside); a qualifier keeps those
 * whose department name or email is it.
 *
 * @example findPeople(people, 'ada lovelace', 'Sales')
 */
export function findPeople(people: readonly Person[], name: string, qualifier?: string): Person[] {
  const wanted = normalizeName(name);
  const named = people.filter((p) => normalizeName(p.name) === wanted);
  if (qualifier === undefined) return named;
  const q = normalizeName(qualifier);
  return named.filter((p) => normalizeName(p.email) === q || (p.department !== null && normalizeName(p.department.name) === q));
}

/**
 * Resolves a name, reading the directory again once when the cached copy finds nobody (a colleague
 * who joined since it was cached).
 */
export async function resolvePerson(ctx: BotContext<unknown>, ttlMs: number, name: string, qualifier?: string): Promise<Person[]> {
  const directory = await loadDirectory(ctx, ttlMs);
  const found = findPeople(directory.people, name, qualifier);
  if (found.length > 0 || !directory.cached) return found;
  return findPeople((await loadDirectory(ctx, ttlMs, { fresh: true })).people, name, qualifier);
}
