import { scaffoldFiles } from '../commands/new';
import { VENDOR_DIR } from './intrabot-spec';

export interface ProjectOptions {
  /** The project's npm name. */
  name: string;
  /** The dependency on intrabot (`^0.1.0`, `file:vendor/intrabot-0.1.0.tgz`). */
  intrabot: string;
  /** The intrabot tarball inside the project that `intrabot` points at (`vendor/intrabot-0.1.0.tgz`), when it is one. */
  vendored?: string | undefined;
  /** Versions of the tools the project develops with, as intrabot itself is tested with them. */
  devDependencies: { typescript: string; vitest: string; '@types/node': string };
  /** The Node version intrabot needs (`>=20.18.1`). */
  node: string;
}

/**
 * The files of a new bots repository, by path: a package that depends on intrabot, a first bot
 * (`bots/hello`, as `intrabot new hello` makes it) with its test, and what running it needs (the
 * sandbox's values, a Dockerfile, CI). Every command the README names works as printed. A vendored
 * tarball is not among them (init copies it): the .gitignore keeps it and the Dockerfile copies it.
 */
export function projectFiles(options: ProjectOptions): Record<string, string> {
  const bot = Object.entries(scaffoldFiles('hello')).map(([path, text]) => [`bots/hello/${path}`, text]);
  return {
    'package.json': packageJson(options),
    'tsconfig.json': TSCONFIG,
    'vitest.config.ts': VITEST_CONFIG,
    ...Object.fromEntries(bot),
    'sandbox.env': SANDBOX_ENV,
    '.gitignore': gitignore(options.vendored),
    '.dockerignore': DOCKERIGNORE,
    Dockerfile: dockerfile(options.vendored),
    '.github/workflows/ci.yml': CI,
    'README.md': readme(options),
  };
}

function packageJson(options: ProjectOptions): string {
  const pkg = {
    name: options.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: options.node },
    scripts: {
      start: 'intrabot start',
      dev: 'intrabot dev',
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
    },
    dependencies: { intrabot: options.intrabot },
    devDependencies: options.devDependencies,
    // npm runs only the install scripts a project allows: the SQLite driver builds or fetches its
    // native module, esbuild (which compiles the bots) checks its binary
    allowScripts: { 'better-sqlite3': true, esbuild: true },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const TSCONFIG = `{
  // bots are compiled by intrabot (esbuild) and run under vitest: imports inside a bot may leave out
  // file extensions, as with a bundler
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023"],
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "types": ["node"],
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "isolatedModules": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["bots", "vitest.config.ts"]
}
`;

const VITEST_CONFIG = `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['bots/**/*.test.ts'],
    // a bot's test starts a sandbox and a runtime, and compiles the bot on its first run
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
`;

const SANDBOX_ENV = `# Values for sandbox mode only (npm start with no tenant configured): \${env:NAME} references in the
# bots' bot.yaml read them there. Never read in connected mode, where the real environment counts.
# EXAMPLE_SECRET=sandbox-value
`;

function gitignore(vendored: string | undefined): string {
  const ignored = 'node_modules/\n.intrabot/\n*.log\n.env\n';
  if (vendored === undefined) return ignored;
  // a global ignore of *.tgz (or of vendor/) would leave a clone without the dependency: this file wins
  return `${ignored}# ${vendored}: the intrabot that package.json depends on, committed with the project
!/${VENDOR_DIR}/
!/${VENDOR_DIR}/**
`;
}

const DOCKERIGNORE = `node_modules
.intrabot
.git
*.log
.env
`;

function dockerfile(vendored: string | undefined): string {
  const vendor =
    vendored === undefined
      ? ''
      : `# the intrabot tarball that package.json depends on (file:${vendored})
COPY ${VENDOR_DIR}/ ./${VENDOR_DIR}/
`;
  return `# The bots in a container: one process, the intrabot runtime. Configure the tenant with environment
# variables (INTRABOT_BASE_URL, INTRABOT_TOKEN, INTRABOT_SECRET_KEY, INTRABOT_PUBLIC_URL) and keep
# /app/.intrabot on a volume (the SQLite store), or set INTRABOT_REDIS_URL to run several replicas.
FROM node:20-bookworm-slim
WORKDIR /app
# better-sqlite3 builds its native module when no prebuilt binary matches
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
${vendor}RUN npm ci --omit=dev
COPY . .
ENV INTRABOT_HOST=0.0.0.0 INTRABOT_PORT=3000 INTRABOT_LOG_FORMAT=json NODE_ENV=production
EXPOSE 3000
VOLUME ["/app/.intrabot"]
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--max-semi-space-size=8", "--v8-pool-size=1", "--expose-gc", "node_modules/intrabot/bin/intrabot.mjs", "start"]
`;
}

const CI = `name: CI
on:
  push:
  pull_request:
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npm run typecheck
      - run: npm test
`;

/** The docs the project's README points at, in the installed package (intrabot ships its docs/). */
export const REFERENCE_DOCS = [
  ['manifest.md', "a bot's `bot.yaml`"],
  ['context.md', 'the handler context `ctx`'],
  ['chat-ops.md', 'commands'],
  ['testing.md', '`testBot` and `startPair`'],
  ['cli.md', 'the `intrabot` command'],
  ['configuration.md', 'connecting to a tenant, and every setting'],
  ['operations.md', 'running it in production'],
  ['troubleshooting.md', 'what an error message means'],
] as const;

function vendorNote(vendored: string | undefined): string {
  if (vendored === undefined) return '';
  return `
\`package.json\` depends on intrabot's tarball, kept in the project as \`${vendored}\`:
commit that file too (the \`.gitignore\` keeps it, the \`Dockerfile\` copies it). For a newer
intrabot, put its tarball in \`${VENDOR_DIR}/\`, run \`npm install ./${VENDOR_DIR}/<its file name>\` and
delete the old one.
`;
}

function readme(options: ProjectOptions): string {
  const docs = REFERENCE_DOCS.map(([file, what]) => `- \`node_modules/intrabot/docs/${file}\`: ${what}`).join('\n');
  return `# ${options.name}

Bots for the intranet platform, built on intrabot. A bot is a folder in \`bots/\`: a manifest
(\`bot.yaml\`), TypeScript handlers (\`index.ts\`, importing from \`intrabot\`), templates and a test.
With no tenant configured, everything runs against intrabot's embedded emulator of the platform
(the sandbox).

## Set up

\`\`\`sh
npm install
npm test        # the bots' tests: in process, and end to end against a sandbox of their own
npm start       # the runtime on :3000, the sandbox on :4010
\`\`\`

Node 20.18 or newer. Then, while \`npm start\` runs, say \`/hello\` as an employee (user 10) on the
Company wall (wall 1), and read the hello bot's answer, a comment on that post (use the post id the
first call printed):

\`\`\`sh
curl -s -X POST localhost:4010/_sandbox/users/10/posts -H 'content-type: application/json' -d '{"wall_id": 1, "body": "/hello"}'
curl -s -H 'Authorization: Bearer svc_sandbox_token' localhost:4010/api/open/v1/posts/<id>/comments
\`\`\`

## Develop

\`\`\`sh
npm run dev              # like npm start, and reloads a bot when its files change
npx intrabot new standup # a new bot in bots/standup/ that answers /standup, with a template and a test
npm run typecheck
npx intrabot --help      # every command: trigger an event, run a job, call the API...
\`\`\`

A bot imports what it needs from \`intrabot\` (\`defineBot\`, \`z\`, the context and payload types, the
errors), \`intrabot/helpers\` (birthdays, anniversaries, a synced copy of the directory) and, in
tests, \`intrabot/testing\`: \`testBot\` runs one handler, command, job or report in process and answers
what it sent (fast: most tests), \`startPair\` a sandbox and a runtime with your bots over real HTTP
(end to end). \`bots/hello/hello.test.ts\` shows both.
Shared templates go in \`templates/\`; intrabot's own (the alert messages) are used when you have none
of that name. \`sandbox.env\` holds values that only sandbox mode reads.

Each scaffolded bot answers a command named after it (\`/hello\`, \`/standup\`), so no two of them
answer the same post.

## Reference

intrabot's documentation comes with the package, in \`node_modules/intrabot/docs/\`:

${docs}

## Connect to your platform

Set \`INTRABOT_BASE_URL\` (your host), \`INTRABOT_TOKEN\` (a token with the scopes your bots use),
\`INTRABOT_SECRET_KEY\` (encrypts secrets at rest) and \`INTRABOT_PUBLIC_URL\` (the HTTPS address
where the platform reaches this runtime), then \`npx intrabot provision --dry-run\` shows what would
be created, and \`npm start\` deploys and runs every bot in \`bots/\`. \`npx intrabot doctor\` checks
the token, the scopes and the webhooks.

## Deploy and CI

The \`Dockerfile\` runs the bots in one container (port 3000, \`/app/.intrabot\` as a volume); it
installs the dependencies from \`package-lock.json\`, so commit it. \`.github/workflows/ci.yml\`
type-checks and tests every push.
${vendorNote(options.vendored)}`;
}
