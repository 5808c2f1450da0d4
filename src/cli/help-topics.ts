/**
 * What each command's help says beyond its usage and summary: its group in `intrabot --help`, the line
 * it has there, its flags, examples and the environment variables it reads. Kept in one table beside
 * the help that prints it, so every command's help has the same shape and a test can hold each to it.
 */

/** The groups of `intrabot --help`, in the order they are listed: what a user wants to do. */
export const HELP_GROUPS = ['Run it', 'Develop', 'Inspect', 'Operate', 'Platform'] as const;
export type HelpGroup = (typeof HELP_GROUPS)[number];

/** One flag a command takes: `--name` (and `-s`), with a value named `value` when it takes one. */
export interface FlagHelp {
  name: string;
  short?: string;
  /** How the value is shown (`N`, `id`); absent: a switch that takes none. */
  value?: string;
  text: string;
}

/** What a command's help shows beyond its usage and summary. */
export interface HelpTopic {
  group: HelpGroup;
  /** Its line in `intrabot --help`: short enough to stay on one line beside the name at 80 columns. */
  line: string;
  /** Every flag the command takes (empty: none). */
  flags: readonly FlagHelp[];
  /** Command lines as a user types them (at least one). */
  examples: readonly string[];
  /** The environment variables the command reads (empty: none). */
  env: readonly string[];
}

/** What every command that reads the runtime's configuration reads (besides `intrabot.yaml`). */
const CONFIG_ENV = [
  'INTRABOT_BASE_URL',
  'INTRABOT_TOKEN',
  'INTRABOT_PORT',
  'INTRABOT_SANDBOX_PORT',
  'INTRABOT_PUBLIC_URL',
  'INTRABOT_DATA_DIR',
  'INTRABOT_BOTS_DIR',
  'INTRABOT_REDIS_URL',
  'INTRABOT_REDIS_PREFIX',
  'INTRABOT_REDIS_MIN_REPLICAS',
  'INTRABOT_REDIS_WAIT_TIMEOUT_MS',
  'INTRABOT_DATABASE_URL',
  'INTRABOT_DATABASE_SCHEMA',
  'INTRABOT_SECRET_KEY',
  'INTRABOT_ADMIN_TOKEN',
  'INTRABOT_LOG_LEVEL',
  'INTRABOT_LOG_FORMAT',
  'INTRABOT_HOST',
] as const;

const JSON_FLAG: FlagHelp = { name: 'json', text: 'print the result as JSON' };
const TENANT_FLAG: FlagHelp = { name: 'tenant', value: 'id', text: 'the tenant to act on (needed only when several are configured)' };

export const HELP_TOPICS: Readonly<Record<string, HelpTopic>> = {
  api: {
    group: 'Platform',
    line: 'Call the platform API and print JSON',
    flags: [
      { name: 'data', short: 'd', value: 'JSON|@file', text: 'the request body, or @file to read it from a file' },
      { name: 'paginate', text: 'follow the pages and print every item' },
      { name: 'base-url', value: 'URL', text: 'the platform to call (default: INTRABOT_BASE_URL, else the sandbox)' },
      { name: 'token', value: 'T', text: 'the token to call it with (default: INTRABOT_TOKEN)' },
    ],
    examples: ['intrabot api GET /users --paginate', 'intrabot api POST /posts --data \'{"wall_id": 1, "body": "Hello"}\''],
    env: ['INTRABOT_BASE_URL', 'INTRABOT_TOKEN', 'INTRABOT_SANDBOX_PORT'],
  },
  bots: {
    group: 'Operate',
    line: 'Pause, resume or list paused bots',
    flags: [
      TENANT_FLAG,
      { name: 'reason', value: 'text', text: 'pause: why, shown by bots paused and the console' },
      { name: 'discard', text: 'resume: drop the deliveries held while paused instead of handling them' },
      JSON_FLAG,
    ],
    examples: [
      'intrabot bots pause kudos --reason "posting twice"',
      'intrabot bots resume kudos',
      'intrabot bots resume kudos --tenant acme --discard',
      'intrabot bots paused',
    ],
    env: ['INTRABOT_PORT', 'INTRABOT_ADMIN_TOKEN'],
  },
  conformance: {
    group: 'Platform',
    line: 'Check a platform (or the sandbox) against the spec',
    flags: [
      { name: 'base-url', value: 'URL', text: 'the host to check (default: a fresh sandbox)' },
      { name: 'token', value: 'T', text: "the host's token" },
      { name: 'narrow-token', value: 'T2', text: 'a token with fewer scopes, for the permission checks' },
      { name: 'allow-writes', text: 'run the checks that write, on a real host' },
      { name: 'yes', text: 'write to a host this command did not start, without asking' },
      { name: 'event-prefix', value: 'P', text: "the host's brand part of event names (default service)" },
      JSON_FLAG,
    ],
    examples: ['intrabot conformance', 'intrabot conformance --base-url https://acme.example.com --token "$TOKEN" --json'],
    env: ['INTRABOT_BASE_URL', 'INTRABOT_TOKEN'],
  },
  deliveries: {
    group: 'Inspect',
    line: 'Deliveries waiting, handled, dead or audited; replay one',
    flags: [
      { name: 'dead', text: 'the dead letters' },
      { name: 'handled', text: 'what each bot did with its last deliveries, or why it ignored one' },
      { name: 'audit', text: 'the audit log of the bots that keep one' },
      JSON_FLAG,
      { name: 'limit', value: 'N', text: 'at most N (default 50, up to 1000)' },
    ],
    examples: ['intrabot deliveries --dead', 'intrabot deliveries replay 01J9ZK3T6Q'],
    env: CONFIG_ENV,
  },
  dev: {
    group: 'Develop',
    line: 'Start, reloading a bot when its files change',
    flags: [{ name: 'poll', text: 'list new posts and comments every 10 s instead of receiving webhooks' }],
    examples: ['intrabot dev', 'intrabot dev --poll'],
    env: CONFIG_ENV,
  },
  doctor: {
    group: 'Inspect',
    line: 'Check token, scopes, reachability, webhooks and the store',
    flags: [JSON_FLAG],
    examples: ['intrabot doctor', 'intrabot doctor --json'],
    env: CONFIG_ENV,
  },
  init: {
    group: 'Develop',
    line: 'Scaffold a bots repository',
    flags: [{ name: 'intrabot', value: 'version|tarball|folder', text: 'the intrabot the project depends on (default: this one)' }],
    examples: ['intrabot init my-bots'],
    env: [],
  },
  jobs: {
    group: 'Inspect',
    line: 'Scheduled jobs, their next slot and last runs',
    flags: [JSON_FLAG, { name: 'runs', value: 'N', text: 'show the last N runs of each (default 3, up to 20)' }],
    examples: ['intrabot jobs', 'intrabot jobs --runs 5 --json'],
    env: CONFIG_ENV,
  },
  migrate: {
    group: 'Operate',
    line: "Bring the store's schema up to date",
    flags: [JSON_FLAG],
    examples: ['intrabot migrate', 'intrabot migrate --json'],
    env: CONFIG_ENV,
  },
  new: {
    group: 'Develop',
    line: 'Scaffold a new bot, or start from an example bot',
    flags: [{ name: 'from', value: 'EXAMPLE', text: 'copy that example bot (birthday, welcome, kudos, ...) with its tests, renamed' }],
    examples: ['intrabot new standup', 'intrabot new cheers --from birthday'],
    env: ['INTRABOT_BOTS_DIR'],
  },
  openapi: {
    group: 'Platform',
    line: "Print the platform API's OpenAPI document",
    flags: [
      { name: 'server-url', value: 'URL', text: "the document's server" },
      { name: 'compact', text: 'print it on one line' },
    ],
    examples: ['intrabot openapi --server-url https://acme.example.com > openapi.json'],
    env: [],
  },
  outbox: {
    group: 'Inspect',
    line: 'Messages queued or dead-lettered; retry or drop one',
    flags: [{ name: 'target', value: 'T', text: "only that target's entries" }, { name: 'limit', value: 'N', text: 'at most N (default 100)' }, JSON_FLAG],
    examples: ['intrabot outbox dead', 'intrabot outbox retry 42'],
    env: CONFIG_ENV,
  },
  provision: {
    group: 'Operate',
    line: 'Reconcile bot users and webhooks with the manifests',
    flags: [{ name: 'dry-run', text: 'print the plan and change nothing' }, JSON_FLAG],
    examples: ['intrabot provision --dry-run', 'intrabot provision'],
    env: CONFIG_ENV,
  },
  'rotate-secret': {
    group: 'Operate',
    line: "Rotate a bot's webhook signing secret",
    flags: [TENANT_FLAG, { name: 'status', text: "each bot's last rotation" }, JSON_FLAG],
    examples: ['intrabot rotate-secret kudos', 'intrabot rotate-secret alerts --tenant acme', 'intrabot rotate-secret --status'],
    env: CONFIG_ENV,
  },
  run: {
    group: 'Operate',
    line: 'Run a bot job now',
    flags: [TENANT_FLAG, { name: 'wait', value: 'seconds', text: 'in-process: how long to wait for its messages to be delivered (default 60)' }],
    examples: ['intrabot run birthday greet', 'intrabot run todo-digest digest --tenant acme --wait 60'],
    env: CONFIG_ENV,
  },
  sandbox: {
    group: 'Run it',
    line: 'The sandbox platform alone',
    flags: [
      { name: 'port', short: 'p', value: 'N', text: 'the port to listen on (default 4010)' },
      { name: 'data', value: 'FILE', text: 'keep its data in FILE (default: in memory)' },
      { name: 'seed', value: 'demo|empty|large', text: 'what it starts with (default demo)' },
      { name: 'users', value: 'N', text: 'how many employees the large seed makes' },
    ],
    examples: ['intrabot sandbox', 'intrabot sandbox --seed large --users 500'],
    env: ['INTRABOT_SANDBOX_PORT'],
  },
  start: {
    group: 'Run it',
    line: 'The runtime (and the sandbox when no tenant is configured)',
    flags: [{ name: 'no-migrate', text: 'leave the PostgreSQL schema as it is (run intrabot migrate first)' }],
    examples: ['intrabot start', 'INTRABOT_BASE_URL=https://acme.example.com INTRABOT_TOKEN=... intrabot start'],
    env: CONFIG_ENV,
  },
  store: {
    group: 'Operate',
    line: 'Export the store, or import an export into an empty store',
    flags: [
      { name: 'out', value: 'FILE', text: 'export: write to FILE (default: stdout)' },
      { name: 'in', value: 'FILE', text: 'import: read FILE (default: stdin)' },
    ],
    examples: ['intrabot store export --out store.jsonl', 'INTRABOT_DATABASE_URL=postgres://db/intranet intrabot store import --in store.jsonl'],
    env: CONFIG_ENV,
  },
  trigger: {
    group: 'Develop',
    line: 'Send a signed test delivery to the running runtime',
    flags: [{ name: 'payload', value: 'file.json', text: "the event's payload (default: a sample)" }, TENANT_FLAG],
    examples: ['intrabot trigger ops post.created', 'intrabot trigger kudos achievement.awarded --payload awarded.json'],
    env: CONFIG_ENV,
  },
};
