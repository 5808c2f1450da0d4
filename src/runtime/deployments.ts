import { join } from 'node:path';
import { alertInputFromManifest, type ResolvedAlertInput } from '../alerts/alert-input';
import { deploysTo, manifestForTenant, type BotManifest } from '../bots/manifest';
import type { ProvisionedBot, ProvisionResult } from '../bots/provision/provisioner';
import { WallNotFoundError } from '../bots/provision/wall-names';
import type { LoadedBotModule } from '../bots/registry';
import { compose, type Chain, type Middleware } from '../bots/middleware';
import type { WallRef } from '../bots/target-entry';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import { createTemplateEngine, type TemplateEngine } from '../templates';
import type { ReceiverTarget } from '../webhooks/receiver';
import { SigningSecrets } from './rotation/signing-secrets';
import type { TenantRuntime } from './tenants';

/**
 * One bot deployed to one tenant, made once at load: the tenant's view of its manifest, its parsed
 * config, its template engine (made on first use) and its compiled alert inputs. What provisioning made
 * of it is read from the table, which provisioning updates.
 */
export interface Deployment {
  tenant: TenantRuntime;
  bot: LoadedBotModule;
  manifest: BotManifest;
  /** The manifest's `config` for this tenant, parsed by the bot's schema once. */
  config: unknown;
  /** Its own `templates/` first, then the shared ones, in the tenant's time zone. */
  readonly templates: TemplateEngine;
  /** Its alert inputs by name, routing compiled. */
  alertInputs: ReadonlyMap<string, ResolvedAlertInput>;
  /** The runtime's middleware around the bot's own `use`, composed once: every trigger runs through it. */
  chain: Chain;
}

export interface DeploymentTableDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  bots: readonly LoadedBotModule[];
  store: Pick<Store, 'secrets'>;
  /** The repository's shared `templates/`. */
  templatesDir: string;
  /** Secrets read from the store are read again after a minute on it (without one, kept until forgotten). */
  clock?: Clock;
  /** Bots that failed to load (`heldBotNames`): still verified with their known secrets, their deliveries held. */
  held?: ReadonlySet<string>;
  /** Runtime-wide middleware, outermost: each deployment's chain is these, then the bot's own `use`. */
  middleware?: readonly Middleware[];
}

/**
 * Every bot on every tenant it deploys to, built once from the loaded bots; provisioning hands its
 * result to `provisioned(...)`, and nothing else changes it. The receiver, the inbox, the scheduler, the
 * alert inputs and the console all look deployments up here: no config is parsed per request.
 */
export class DeploymentTable {
  private readonly byKey = new Map<string, Deployment>();
  private readonly results = new Map<string, ProvisionResult>();
  private readonly secrets: SigningSecrets;

  constructor(private readonly deps: DeploymentTableDeps) {
    const configured = (tenant: string, bot: string): readonly string[] => deps.tenants.get(tenant)?.config.webhook_secrets?.[bot] ?? [];
    this.secrets = new SigningSecrets({ store: deps.store, configured, clock: deps.clock });
    for (const tenant of deps.tenants.values()) {
      for (const bot of deps.bots) {
        if (deploysTo(bot.manifest, tenant.config.id))
          this.byKey.set(deploymentKey(tenant.config.id, bot.name), makeDeployment(tenant, bot, deps.templatesDir, deps.middleware ?? []));
      }
    }
  }

  /** The bot deployed on a tenant, or undefined (not deployed, or unknown). */
  get(tenant: string, bot: string): Deployment | undefined {
    return this.byKey.get(deploymentKey(tenant, bot));
  }

  /** Every deployment, tenant by tenant. */
  all(): Deployment[] {
    return [...this.byKey.values()];
  }

  tenant(id: string): TenantRuntime | undefined {
    return this.deps.tenants.get(id);
  }

  tenants(): TenantRuntime[] {
    return [...this.deps.tenants.values()];
  }

  /**
   * The tenant a URL without `/t/:tenant` means (`/alerts/...`, `/api/open/v1/...`, the console's links):
   * the first one configured. The one place it is chosen.
   */
  defaultTenant(): string {
    const first = this.deps.tenants.keys().next();
    // the configuration requires a tenant; a table without one is a programming error
    if (first.done) throw new Error('the deployment table has no tenant');
    return first.value;
  }

  /** What this runtime's provisioning made on a tenant; undefined until it finished. */
  provisioning(tenant: string): ProvisionResult | undefined {
    return this.results.get(tenant);
  }

  /** What provisioning made of one deployment (its bot user, its endpoint, switched off and why). */
  provisionedBot(tenant: string, bot: string): ProvisionedBot | undefined {
    return this.results.get(tenant)?.bots[bot];
  }

  /** Provisioning finished on a tenant: its result is what deployments report from now on, and signing secrets are read again. */
  provisioned(result: ProvisionResult): void {
    this.results.set(result.tenant, result);
    this.secrets.forget();
  }

  /** Forgets the signing secrets read so far (they changed in the store: a rotation, a test). */
  forgetSecrets(): void {
    this.secrets.forget();
  }

  /**
   * What the receiver checks a delivery against: the signing secrets (`SigningSecrets`: the endpoint's, a
   * rotation's retiring one, the configured ones; `fresh` reads the store again) and the tenant's customer;
   * undefined for a bot not deployed, switched off, or without any secret. A bot that failed to load is
   * answered for on every tenant that knows a secret of it (its endpoint from an earlier provisioning).
   */
  async receiverTarget(tenantId: string, botName: string, options: { fresh?: boolean } = {}): Promise<ReceiverTarget | undefined> {
    const deployment = this.get(tenantId, botName);
    // a bot that failed to load keeps its route: what its endpoint delivers waits in the inbox for it
    const tenant = deployment?.tenant ?? (this.deps.held?.has(botName) ? this.deps.tenants.get(tenantId) : undefined);
    if (!tenant || this.provisionedBot(tenantId, botName)?.enabled === false) return undefined;
    const secret = await this.secrets.read(tenantId, botName, options);
    if (secret.length === 0) return undefined;
    const { config } = tenant;
    return { tenant: tenantId, bot: botName, secret, customer: config.customer, eventPrefix: config.event_prefix };
  }

  /** What `/reports/...` checks a report against: each report's secret, with the report it signs. */
  reportTarget(tenantId: string, botName: string): ReceiverTarget | undefined {
    const deployment = this.get(tenantId, botName);
    if (!deployment || deployment.manifest.reports.length === 0) return undefined;
    const { reports } = deployment.manifest;
    const { config } = deployment.tenant;
    return {
      tenant: tenantId,
      bot: botName,
      secret: reports.map((r) => r.secret),
      secretEvents: reports.map((r) => r.report),
      customer: config.customer,
      eventPrefix: config.event_prefix,
    };
  }
}

/**
 * A wall named in a send, from the stored listing alone: a send (an alert's included) never waits for the
 * platform. Walls never listed yet (the first provisioning is still running) are left to the sender.
 */
export async function wallRefOf(deployment: Pick<Deployment, 'tenant'>, name: string, field: string): Promise<WallRef> {
  const found = await deployment.tenant.walls.lookup(name);
  if (found.kind === 'found') return { wallId: found.id };
  if (found.kind === 'unlisted') return { wallName: name };
  throw new WallNotFoundError(field, deployment.tenant.config.id, name);
}

/** The one key of a (tenant, bot) pair, for the maps of deployments (the table's, `DeployedBots`'). */
export function deploymentKey(tenant: string, bot: string): string {
  return `${tenant}\u0000${bot}`;
}

function makeDeployment(tenant: TenantRuntime, bot: LoadedBotModule, templatesDir: string, middleware: readonly Middleware[]): Deployment {
  const manifest = manifestForTenant(bot.manifest, tenant.config.id);
  const alertInputs = new Map<string, ResolvedAlertInput>();
  for (const input of manifest.alerts) {
    const resolved = alertInputFromManifest(manifest, input.input);
    if (resolved) alertInputs.set(input.input, resolved);
  }
  let templates: TemplateEngine | undefined;
  return {
    tenant,
    bot,
    manifest,
    config: bot.definition.parseConfig(manifest.config),
    alertInputs,
    chain: compose([...middleware, ...bot.definition.use]),
    // made on first use: most bots never render on most tenants, and start-up should not pay for it
    get templates() {
      templates ??= createTemplateEngine({ dirs: [join(bot.dir, 'templates'), templatesDir], timezone: tenant.config.timezone, locale: 'en-GB' });
      return templates;
    },
  };
}
