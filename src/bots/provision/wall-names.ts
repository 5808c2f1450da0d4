import { z } from 'zod';
import type { IntrabotApi } from '../../api/create-api-client';
import type { Clock } from '../../clock';
import { InvalidInputError } from '../../errors';
import type { KvSpace } from '../../store/kv';
import type { BotManifest } from '../manifest';
import { isPlainObject } from '../manifest-parts';
import type { Target } from '../manifest-targets';

/** The kv namespace of the stored listings, one key per tenant. */
export const WALLS_KV = 'runtime:walls';

/**
 * A tenant's walls by name, as last listed (spec: Walls, `GET /walls`; a Wall has `id` and `name`).
 * One value in the store: every replica reads it, and so does the process after a restart.
 */
export const WallListingSchema = z.object({
  /** When the walls were listed (ms on the clock). */
  listedAt: z.number(),
  /** Wall ids by lower-cased name: names are matched without regard to case. */
  ids: z.record(z.string(), z.number().int().positive()),
});
export type WallListing = z.infer<typeof WallListingSchema>;

/** What the stored listing says about a name, without asking the platform. */
export type WallLookup =
  | { kind: 'found'; id: number }
  /** The last listing has no wall of that name: a configuration error until the walls are listed again. */
  | { kind: 'missing'; listedAt: number }
  /** The walls were never listed on this tenant (the first provisioning has not finished). */
  | { kind: 'unlisted' };

/** A wall named in a target or a send does not exist on the tenant. `field` names where the name came from. */
export class WallNotFoundError extends InvalidInputError {
  readonly wall: string;
  constructor(field: string, tenant: string, wall: string) {
    super(field, `${field}: no wall named "${wall}" on tenant ${tenant} (walls are listed at provisioning; fix the name, or provision again)`, {
      details: { tenant, wall },
    });
    this.wall = wall;
  }
}

/** The wall name of a target that names its wall (`{ wall: "Operations" }`); undefined for an id or another kind of target. */
export function namedWallOf(target: Target): string | undefined {
  if (!('wall' in target) || typeof target.wall === 'number') return undefined;
  return /^\d+$/.test(target.wall) ? undefined : target.wall;
}

/** A wall a bot names: in a target (`targets.team.wall`) or in its config (`config.target.wall`). */
export interface NamedWall {
  bot: string;
  /** The target's name, or the config path of a `{ wall }` reference (`config.target`). */
  target: string;
  wall: string;
  /** Where the name is written in bot.yaml. */
  field: string;
}

/**
 * Every wall these manifests name: targets that name their wall, and `{ wall: "Name" }` references in
 * a bot's `config` (the `TargetRef` a bot passes to `ctx.post`), so a wrong name is found at
 * provisioning rather than when a job first posts. A wall name in a plain string config value is the
 * bot's own business: nothing marks it as one.
 */
export function namedWallTargets(manifests: readonly BotManifest[]): NamedWall[] {
  return manifests.flatMap((m) => [
    ...Object.entries(m.targets).flatMap(([target, spec]) => {
      const wall = namedWallOf(spec);
      return wall === undefined ? [] : [{ bot: m.name, target, wall, field: `targets.${target}.wall` }];
    }),
    ...configWallRefs(m.config, 'config').map(({ path, wall }) => ({ bot: m.name, target: path, wall, field: `${path}.wall` })),
  ]);
}

/** `{ wall: "Name" }` objects (that key alone) anywhere in a config value, with their paths. */
function configWallRefs(value: unknown, path: string): { path: string; wall: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => configWallRefs(item, `${path}.${i}`));
  if (!isPlainObject(value)) return [];
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'wall') {
    const wall = value.wall;
    return typeof wall === 'string' && !/^\d+$/.test(wall) ? [{ path, wall }] : [];
  }
  return Object.entries(value).flatMap(([key, item]) => configWallRefs(item, `${path}.${key}`));
}

/** Lists every wall of a tenant (one paginated read) into a listing. The first wall of a name wins. */
export async function listWalls(api: Pick<IntrabotApi, 'walls'>, clock: Clock): Promise<WallListing> {
  const ids: Record<string, number> = {};
  for await (const item of api.walls.all({ per_page: 50 })) {
    const wall = item as { id: number; name: string };
    ids[wall.name.toLowerCase()] ??= wall.id;
  }
  return { listedAt: clock.now(), ids };
}

export interface WallNamesDeps {
  tenant: string;
  api: Pick<IntrabotApi, 'walls'>;
  clock: Clock;
  /** Where listings are kept; shared by the replicas. */
  kv: KvSpace;
}

/**
 * Wall ids by name on one tenant. Provisioning lists the walls once and stores the listing
 * (`remember`); everything else reads it: `lookup` never asks the platform (the alert inputs answer
 * from it), `resolve` lists the walls only when they were never listed, one listing shared by every
 * concurrent caller. A name the listing lacks stays missing until the next provisioning lists again,
 * so a wrong name costs no request per message.
 *
 * @example
 * const walls = new WallNames({ tenant: 'default', api, clock, kv: store.kv(WALLS_KV) });
 * await walls.relist(); // at provisioning
 * await walls.lookup('Operations'); // { kind: 'found', id: 4 }
 */
export class WallNames {
  private inFlight: Promise<WallListing> | undefined;

  constructor(private readonly deps: WallNamesDeps) {}

  get tenant(): string {
    return this.deps.tenant;
  }

  /** The stored listing, or undefined when the walls were never listed. */
  async listing(): Promise<WallListing | undefined> {
    const parsed = WallListingSchema.safeParse(await this.deps.kv.get(this.deps.tenant));
    return parsed.success ? parsed.data : undefined;
  }

  async remember(listing: WallListing): Promise<void> {
    await this.deps.kv.set(this.deps.tenant, listing);
  }

  /** What the stored listing says about `name`; no platform request. */
  async lookup(name: string): Promise<WallLookup> {
    const listing = await this.listing();
    if (!listing) return { kind: 'unlisted' };
    const id = listing.ids[name.toLowerCase()];
    return id === undefined ? { kind: 'missing', listedAt: listing.listedAt } : { kind: 'found', id };
  }

  /** The id of the wall `name`, listing the walls first if they never were; throws `WallNotFoundError` naming `field`. */
  async resolve(name: string, field = 'wall'): Promise<number> {
    let found = await this.lookup(name);
    if (found.kind === 'unlisted') {
      await this.relist();
      found = await this.lookup(name);
    }
    if (found.kind !== 'found') throw new WallNotFoundError(field, this.deps.tenant, name);
    return found.id;
  }

  /** Lists the walls without storing the listing (a dry run). */
  fetch(): Promise<WallListing> {
    return listWalls(this.deps.api, this.deps.clock);
  }

  /** Lists the walls again and stores the listing; callers arriving meanwhile share this one listing. */
  relist(): Promise<WallListing> {
    this.inFlight ??= listWalls(this.deps.api, this.deps.clock)
      .then(async (listing) => {
        await this.remember(listing);
        return listing;
      })
      .finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }
}
