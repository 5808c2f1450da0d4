// The package as a new user gets it (issue #14, acceptance): packed with `npm pack`, installed from the
// tarball into new projects with only the registry, `npx --package <tarball> intrabot init`, then
// everything the scaffold's README and "Next:" lines say, and the scaffold committed and cloned as its
// CI and Docker build get it. Minutes of installing, so not part of `npm test`: `npm run test:package`
// runs it, and CI runs that as its own step.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'intrabot-package-'));
const project = join(tmp, 'my-bots');

/** The parent's environment without intrabot's settings (CI sets a Redis) or vitest's own. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(INTRABOT_|VITEST|NODE_ENV$)/.test(k)));
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/**
 * Runs a command line through the shell, as a user types it, and resolves to its output (stdout and
 * stderr together) once it exits 0; any other exit fails the test with that output. Asynchronous, so
 * the test worker keeps answering vitest while an install takes minutes.
 */
async function ok(command: string, cwd: string, env: Record<string, string> = {}): Promise<string> {
  const began = performance.now();
  const child = spawn('bash', ['-c', `${command} 2>&1`], { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done(code));
  });
  // the steps that take time, in the log, to see where the package test's minutes go
  const seconds = (performance.now() - began) / 1000;
  if (seconds >= 1) console.log(`${seconds.toFixed(1)} s: ${command}`);
  expect(status, `${command}\n${output}`).toBe(0);
  return output;
}

/** Runs the command lines in the project, two at once, each as `ok` does. */
async function twoAtATime(commands: readonly string[]): Promise<void> {
  const queue = [...commands];
  const lane = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await ok(next, project);
  };
  await Promise.all([lane(), lane()]);
}

/**
 * better-sqlite3's install script downloads a prebuilt binary from GitHub, which CI cannot reach, and
 * falls back to compiling SQLite: a minute of CPU, which this checkout's `npm ci` has spent already.
 * The consumer's install finds this checkout's binary as a local prebuild instead (prebuild-install's
 * `npm_config_better_sqlite3_local_prebuilds`), as a user's install finds the downloaded one. Should
 * the consumer resolve another version of better-sqlite3 than this checkout's, no file matches and it
 * compiles, as before.
 */
let prebuildsEnv: Record<string, string> | undefined;
function prebuilds(): Record<string, string> {
  if (prebuildsEnv) return prebuildsEnv;
  const dir = join(tmp, 'prebuilds');
  const installed = join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
  mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(dir, name), '-C', installed, 'build/Release/better_sqlite3.node']);
  prebuildsEnv = { npm_config_better_sqlite3_local_prebuilds: dir };
  return prebuildsEnv;
}

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

let packed: Packed;
let tarball: string;

beforeAll(async () => {
  // prepack builds dist/ first
  const output = await ok(`npm pack --json --pack-destination ${JSON.stringify(tmp)}`, ROOT);
  packed = (JSON.parse(output.slice(output.indexOf('[\n'))) as Packed[])[0]!;
  tarball = join(tmp, packed.filename);
  console.log(
    `intrabot tarball: ${packed.entryCount} files, ${(packed.size / 1e6).toFixed(2)} MB packed, ${(packed.unpackedSize / 1e6).toFixed(2)} MB unpacked`,
  );
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file under a folder but node_modules and .git. */
function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === '.git') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** The README's two curl lines (post a command, read the comments on it), on this run's sandbox port. */
function readmeCurls(sandboxPort: number): { post: (body: string) => string; comments: (postId: number) => string } {
  const readme = readFileSync(join(project, 'README.md'), 'utf8');
  const [postLine, commentsLine] = readme
    .split('\n')
    .filter((line) => line.startsWith('curl '))
    .map((line) => line.replaceAll('localhost:4010', `localhost:${sandboxPort}`));
  expect(postLine, readme).toContain('"body": "/hello"');
  return { post: (body) => postLine!.replace('"/hello"', JSON.stringify(body)), comments: (id) => commentsLine!.replace('<id>', String(id)) };
}

/**
 * Runs `npm run <script>` in the project on free ports and checks the README's /hello exchange against
 * it, and /standup, the command of the bot `intrabot new standup` added: each answered by its own bot
 * alone (both once answered /hello).
 */
async function greetsThroughReadme(script: 'start' | 'dev'): Promise<void> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const env = cleanEnv({ INTRABOT_PORT: String(port), INTRABOT_SANDBOX_PORT: String(sandboxPort), INTRABOT_LOG_LEVEL: 'warn' });
  // its own process group, so npm and the runtime under it stop together
  const child = spawn('npm', ['run', script], { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    let ready = false;
    for (let i = 0; i < 600 && !ready; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready, output).toBe(true);
    const curl = readmeCurls(sandboxPort);
    const comments = async (postId: number) => (JSON.parse(await ok(curl.comments(postId), project)) as { data: { body?: string }[] }).data;
    const posts: number[] = [];
    // the two answers read alike: what shows that each bot answers only its own command is the count
    for (const command of ['/hello', '/standup']) {
      const posted = JSON.parse(await ok(curl.post(command), project)) as { data: { id: number } };
      posts.push(posted.data.id);
      let answers: Awaited<ReturnType<typeof comments>> = [];
      for (let i = 0; i < 100 && answers.length === 0; i++) {
        answers = await comments(posted.data.id);
        if (answers.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(answers[0]?.body, `${command}\n${output}`).toMatch(/^Hello, \S.*!$/);
    }
    // by the time /standup is answered, a second answer to /hello would have come
    for (const id of posts) expect(await comments(id), output).toHaveLength(1);
    // the web console's page and modules come from the installed package (no src/ there)
    const page = await fetch(`http://127.0.0.1:${port}/console/`);
    expect(page.status, output).toBe(200);
    expect(await page.text()).toContain('importmap');
    const styles = await fetch(`http://127.0.0.1:${port}/console/intrabot.css`);
    expect(styles.status, 'the shared style sheet, from dist/web/public').toBe(200);
    // and the sandbox's playground, from dist/sandbox/playground/public
    const playground = await fetch(`http://127.0.0.1:${sandboxPort}/`, { headers: { accept: 'text/html' } });
    expect(await playground.text(), output).toContain('<title>intrabot playground</title>');
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  }
  await exited;
  expect(output).not.toContain('not loaded');
}

/** Example bots a project starts from (`intrabot new <name> --from <example>`): their tests run in its CI. */
const COPIED = [
  ['cheers', 'birthday'],
  ['all-hands', 'acknowledge'],
  ['daily', 'standup'],
  ['coffee', 'pairing'],
  ['it-desk', 'helpdesk'],
  ['shipped', 'releases'],
  ['news', 'feeds'],
  ['rota', 'calendar'],
  ['oncall-alerts', 'alerts'],
] as const;

describe('the intrabot package', () => {
  it('holds what a consumer runs and reads: the build, the CLI, the shared templates, the docs and the example bots to start from, and no sources or tests of its own', async () => {
    const top = new Set(packed.files.map((f) => f.path.split('/')[0]));
    expect([...top].sort()).toEqual(['README.md', 'bin', 'dist', 'docs', 'package.json', 'templates']);
    expect(packed.files.map((f) => f.path)).toEqual(expect.arrayContaining(['docs/manifest.md', 'docs/testing.md', 'docs/images/console-overview.png']));
    expect(packed.files.map((f) => f.path).filter((p) => p.startsWith('bin/'))).toEqual(['bin/intrabot.mjs']);
    for (const entry of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/testing/index.js',
      'dist/testing/index.d.ts',
      'dist/helpers/index.js',
      'dist/helpers/index.d.ts',
      'dist/cli/main.js',
      'dist/console/public/index.html',
      'dist/web/public/intrabot.css',
      'dist/sandbox/playground/public/index.html',
    ]) {
      expect(
        packed.files.some((f) => f.path === entry),
        entry,
      ).toBe(true);
    }
    // the example bots are copied into a project with their sources and tests (intrabot new --from)
    const own = packed.files.filter((f) => !f.path.startsWith('dist/examples/'));
    expect(own.filter((f) => /\.test\.|(^|\/)src\/|\.ts$/.test(f.path) && !f.path.endsWith('.d.ts'))).toEqual([]);
    expect(packed.files.map((f) => f.path)).toEqual(expect.arrayContaining(['dist/examples/birthday/bot.yaml', 'dist/examples/birthday/birthday.test.ts']));
    // every example stands alone, the alerts bot too (its payloads come from intrabot/testing's alertSample)
    expect(packed.files.map((f) => f.path)).toEqual(expect.arrayContaining(['dist/examples/alerts/bot.yaml', 'docs/alert-samples/alertmanager-firing.json']));
  });

  it('scaffolds a project with npx --package <tarball> intrabot init, as the README says, the tarball copied into it as its intrabot', async () => {
    // the README's command for a tarball alone (intrabot is not on the registry), run from the tarball's
    // folder; npx installs intrabot and its dependencies into a cache of its own (a fresh one here)
    const init = await ok(`npx --yes --package ./${packed.filename} intrabot init my-bots --intrabot ./${packed.filename}`, tmp, {
      npm_config_cache: mkdtempSync(join(tmp, 'npx-cache-')),
      ...prebuilds(),
    });
    expect(init).toContain('Next:\n  cd my-bots\n  npm install\n  npm test');
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies.intrabot).toBe(`file:vendor/${packed.filename}`);
    expect(readFileSync(join(project, 'vendor', packed.filename)).equals(readFileSync(tarball))).toBe(true);
  });

  it("installs the scaffold's dependencies with no package asking for a newer Node than intrabot's engines", async () => {
    const install = await ok('npm install --no-audit --no-fund', project, prebuilds());
    expect(install).not.toContain('EBADENGINE');
    // fastify's own range would take light-my-request 6.8, whose cookie 2 needs Node 22
    const tree = await ok('npm ls cookie light-my-request --all', project);
    expect(tree).not.toMatch(/cookie@2/);
    // the docs the scaffold points at are in the installed package
    const pointers = [...walk(project)].flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/node_modules\/intrabot\/[\w./-]+\.md/g)].map((m) => m[0]));
    expect(pointers).toContain('node_modules/intrabot/docs/manifest.md');
    for (const pointer of new Set(pointers)) expect(existsSync(join(project, pointer)), pointer).toBe(true);
  });

  it('copies example bots as starting points with intrabot new <name> --from <example>, renamed, with their tests', async () => {
    for (const [name, example] of COPIED) {
      const made = await ok(`npx intrabot new ${name} --from ${example}`, project);
      expect(made).toContain(`created bots/${name}/`);
      expect(readFileSync(join(project, 'bots', name, 'bot.yaml'), 'utf8')).toMatch(new RegExp(`^name: ${name}$`, 'm'));
    }
    expect(existsSync(join(project, 'bots', 'cheers', 'birthday.test.ts'))).toBe(true);
  });

  it('installs from a clean clone of the committed scaffold with an empty npm cache and passes its tests, as its CI and Docker build would', async () => {
    const git = 'git -c user.name=intrabot -c user.email=package-test@example.invalid -c commit.gpgsign=false';
    await ok(`${git} init -q && ${git} add -A && ${git} commit -qm 'intrabot init'`, project);
    const clone = join(tmp, 'clone');
    await ok(`git clone -q ${JSON.stringify(project)} ${JSON.stringify(clone)}`, tmp);
    expect(existsSync(join(clone, 'vendor', packed.filename)), 'the tarball is committed').toBe(true);
    expect(existsSync(join(clone, 'package-lock.json')), 'the lock file is committed').toBe(true);
    await ok('npm ci --no-audit --no-fund', clone, { npm_config_cache: mkdtempSync(join(tmp, 'empty-cache-')), ...prebuilds() });
    try {
      // the scaffold's two tests, and the tests of the bots copied from the examples; on two workers:
      // vitest's default is one fewer than the cores, one on CI's two, where nothing else runs now
      const tested = await ok('npm test -- --maxWorkers=2', clone);
      for (const [name] of COPIED) expect(tested).toContain(`bots/${name}/`);
      expect(tested).toMatch(/Tests\s+\d+ passed/);
      expect(tested).not.toMatch(/Tests\s+\d+ failed/);
    } finally {
      // the checks below are about the scaffold's own files (the copied examples import their modules
      // without extensions, as the scaffold's Bundler resolution allows; the standup copy answers /standup)
      for (const [name] of COPIED) rmSync(join(project, 'bots', name), { recursive: true, force: true });
    }
    rmSync(clone, { recursive: true, force: true });
  });

  it('type-checks with fully typed handlers under strict NodeNext, Node16 and Bundler resolution, with the current @types/node, and no dev dependency of intrabot', async () => {
    // wrong uses that type-check only when payloads, config and helpers degrade to `any`
    writeFileSync(
      join(project, 'bots', 'hello', 'types-probe.ts'),
      `import { ApiForbiddenError, defineBot, DurationSchema, z, type BotContext, type Post } from 'intrabot';
import { birthdaysOn } from 'intrabot/helpers';
import { startPair, testBot } from 'intrabot/testing';

export const probe = defineBot({
  config: z.object({ greeting: z.string(), quiet: DurationSchema }),
  on: {
    'post.created': async (event, ctx) => {
      const body: string = event.payload.body;
      const today: string = ctx.today();
      // @ts-expect-error now() is ms since the epoch, not a Date
      const date: Date = ctx.now();
      // @ts-expect-error the body of a post is a string
      const wrong: number = event.payload.body;
      // @ts-expect-error greeting is a string
      const n: number = ctx.config.greeting;
      try {
        await ctx.reply(\`\${body} \${n} \${wrong} \${today} \${String(date)}\`);
      } catch (error) {
        if (error instanceof ApiForbiddenError) ctx.log.warn('forbidden', { message: error.message });
        // @ts-expect-error a log line's message comes first
        ctx.log.warn({ message: 'no' }, 'forbidden');
      }
    },
  },
});
export const read = (ctx: BotContext, post: Post) => [ctx.tenant, post.id, birthdaysOn([], '2026-01-01')];
// @ts-expect-error startPair takes options, not a number
export const pair = () => startPair(1).then(async (p) => (await p.refs()).company_wall_id);
export const fast = async () => {
  const sent = await (await testBot('bots/hello')).command('/hello', { user: { id: 7, name: 'Ada' } });
  // @ts-expect-error what a test sees sent has a kind among the known ones, not a number
  const kind: number = sent[0]!.kind;
  return kind;
};
`,
    );
    const strict = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      types: ['node'],
      target: 'ES2022',
    };
    const resolutions = [
      ['nodenext', { module: 'NodeNext', moduleResolution: 'NodeNext' }],
      ['node16', { module: 'Node16', moduleResolution: 'Node16' }],
      ['bundler', { module: 'ESNext', moduleResolution: 'Bundler' }],
    ] as const;
    for (const [name, resolution] of resolutions) {
      // Bundler is the scaffold's own resolution: that check is the scaffold's tsconfig.json (what its
      // `npm run typecheck` checks: bots and vitest.config.ts) made stricter, so it covers that script
      // too, with one type check fewer
      const config =
        name === 'bundler'
          ? { extends: './tsconfig.json', compilerOptions: { ...strict, ...resolution } }
          : { compilerOptions: { ...strict, ...resolution }, include: ['bots'] };
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
    }
    // with the tool versions the scaffold pins (intrabot's own), then with the newest TypeScript 5 and
    // @types/node (Node16 resolves as NodeNext does for these files: checked once)
    // two checks at a time: each tsc is one thread, and CI has two cores
    await twoAtATime(resolutions.map(([name]) => `npx tsc -p tsconfig.${name}.json`));
    await ok('npm install --no-save --no-audit --no-fund typescript@5 @types/node@latest', project, prebuilds());
    await twoAtATime(['npx tsc -p tsconfig.nodenext.json', 'npx tsc -p tsconfig.bundler.json']);
    rmSync(join(project, 'bots', 'hello', 'types-probe.ts'));
    // intrabot's declarations name no package the project lacks (@types/better-sqlite3 is intrabot's dev dependency)
    const lock = readFileSync(join(project, 'package-lock.json'), 'utf8');
    expect(lock).not.toContain('@types/better-sqlite3');
  });

  it("passes the scaffold's tests, and those of a bot added with intrabot new, as its Next: lines say", async () => {
    // the hello bot's test is two: in process, and end to end
    expect(await ok('npx vitest run bots/hello', project)).toMatch(/Tests\s+2 passed/);
    const added = await ok('npx intrabot new standup', project);
    expect(added).toContain('"/standup"');
    const next = added.split('\n').find((line) => line.trim().startsWith('npx vitest'));
    expect(next, added).toBeDefined();
    expect(await ok(next!.replace(/#.*/, '').trim(), project)).toMatch(/Tests\s+2 passed/);
    expect(readFileSync(join(project, 'bots', 'standup', 'index.ts'), 'utf8')).toContain("from 'intrabot'");
  });

  it('imports intrabot and intrabot/testing under plain Node', async () => {
    const names = await ok(`node -e "import('intrabot').then((m) => console.log(typeof m.defineBot, typeof m.ApiForbiddenError))"`, project);
    expect(names.trim()).toBe('function function');
    const testing = await ok(`node -e "import('intrabot/testing').then((m) => console.log(typeof m.startPair, typeof m.testBot))"`, project);
    expect(testing.trim()).toBe('function function');
    const helpers = await ok(`node -e "import('intrabot/helpers').then((m) => console.log(typeof m.birthdaysOn))"`, project);
    expect(helpers.trim()).toBe('function');
  });

  it("starts on the sandbox with npm start: the hello bot answers the README's /hello post, the standup bot /standup, each alone", async () => {
    await greetsThroughReadme('start');
  });

  it('starts the same way with npm run dev', async () => {
    await greetsThroughReadme('dev');
  });
});
