import type { EventName } from '../webhooks/events';
import { deploysTo, manifestForTenant, type BotManifest } from './manifest';

/** What `commandOverlaps` needs of a loaded bot: its name, its manifest and its command names. */
export interface CommandBot {
  name: string;
  manifest: BotManifest;
  definition: { readonly commands: Readonly<Record<string, unknown>> };
}

/** One command two bots both answer where both read commands. */
export interface CommandOverlap {
  command: string;
  bots: [string, string];
  /** The walls both read the command on: `'all'` when either reads every wall. */
  walls: 'all' | number[];
  tenants: string[];
  /** `command /hello is answered by both greeter and welcome on every wall (tenant sandbox)` */
  summary: string;
  /** What to do about it. */
  fix: string;
  /** The summary, what it does and the fix, as one log line. */
  message: string;
}

/** Commands are read from posts and comments; a bot sees a wall's when it subscribes to them there. */
const COMMAND_EVENTS: readonly EventName[] = ['post.created', 'comment.created'];

/** Where a bot reads commands, per event: every wall, these walls, or (absent) not at all. */
type Reach = Map<EventName, 'all' | Set<number>>;

/**
 * Commands that two bots would both run for one post: the same command name, on walls both bots read
 * posts or comments from (a subscription without a `walls` filter reads every wall, so such a bot
 * overlaps with any other bot of that command), on a tenant both deploy to. A `/hello` there is answered
 * twice, which neither bot's author sees in their own tests: told at load and by `intrabot doctor`.
 *
 * @example
 * commandOverlaps(registry.bots, ['sandbox'])
 * // => [{ command: 'hello', bots: ['greeter', 'welcome'], walls: 'all', tenants: ['sandbox'], summary, fix, message }]
 */
export function commandOverlaps(bots: readonly CommandBot[], tenants: readonly string[]): CommandOverlap[] {
  const found = new Map<string, Omit<CommandOverlap, 'summary' | 'fix' | 'message'>>();
  for (const tenant of tenants) {
    const deployed = bots.filter((bot) => deploysTo(bot.manifest, tenant)).map((bot) => ({ bot, reach: reachOf(manifestForTenant(bot.manifest, tenant)) }));
    deployed.forEach((first, i) => {
      for (const second of deployed.slice(i + 1)) {
        for (const command of Object.keys(first.bot.definition.commands)) {
          if (!(command in second.bot.definition.commands)) continue;
          const walls = sharedWalls(first.reach, second.reach);
          if (walls === undefined) continue;
          const key = `${command}\u0000${first.bot.name}\u0000${second.bot.name}`;
          const known = found.get(key);
          if (known) known.tenants.push(tenant);
          else found.set(key, { command, bots: [first.bot.name, second.bot.name], walls, tenants: [tenant] });
        }
      }
    });
  }
  return [...found.values()].map((overlap) => ({ ...overlap, ...describe(overlap) }));
}

function reachOf(manifest: BotManifest): Reach {
  const reach: Reach = new Map();
  for (const entry of manifest.events) {
    if (!COMMAND_EVENTS.includes(entry.event)) continue;
    const walls = 'walls' in entry && Array.isArray(entry.walls) ? (entry.walls as number[]) : undefined;
    const known = reach.get(entry.event);
    if (walls === undefined || known === 'all') reach.set(entry.event, 'all');
    else reach.set(entry.event, new Set([...(known ?? []), ...walls]));
  }
  return reach;
}

/** The walls where both read commands from the same event; undefined when there are none. */
function sharedWalls(a: Reach, b: Reach): 'all' | number[] | undefined {
  const walls = new Set<number>();
  for (const event of COMMAND_EVENTS) {
    const left = a.get(event);
    const right = b.get(event);
    if (left === undefined || right === undefined) continue;
    if (left === 'all' || right === 'all') {
      if (left === 'all' && right === 'all') return 'all';
      for (const wall of left === 'all' ? (right as Set<number>) : left) walls.add(wall);
      continue;
    }
    for (const wall of left) if (right.has(wall)) walls.add(wall);
  }
  return walls.size ? [...walls].sort((x, y) => x - y) : undefined;
}

function describe(overlap: Omit<CommandOverlap, 'summary' | 'fix' | 'message'>): Pick<CommandOverlap, 'summary' | 'fix' | 'message'> {
  const [first, second] = overlap.bots;
  const where = overlap.walls === 'all' ? 'every wall' : `wall${overlap.walls.length > 1 ? 's' : ''} ${overlap.walls.join(', ')}`;
  const tenants = `tenant${overlap.tenants.length > 1 ? 's' : ''} ${overlap.tenants.join(', ')}`;
  const summary = `command /${overlap.command} is answered by both ${first} and ${second} on ${where} (${tenants})`;
  const fix = `rename /${overlap.command} in one of them, or give their events walls that do not overlap`;
  return { summary, fix, message: `${summary}: one /${overlap.command} there runs both; ${fix}` };
}
