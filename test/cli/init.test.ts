import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { INTRABOT_VERSION } from '../../src/api/version';
import { loadBots } from '../../src/bots/registry';
import { runInit } from '../../src/cli/commands/init';
import { captureIo } from './cli-io';

const tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-init-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every file under a folder. */
function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;

describe('intrabot init', () => {
  it('scaffolds a bots repository that depends on the running intrabot, and says what to do next', async () => {
    const io = captureIo({}, tmp);
    expect(await runInit(['My Bots'], io)).toBe(0);
    const dir = join(tmp, 'My Bots');
    const pkg = readJson(join(dir, 'package.json'));
    expect(pkg.name).toBe('my-bots');
    expect(pkg.dependencies).toEqual({ intrabot: `^${INTRABOT_VERSION}` });
    expect(Object.keys(pkg.devDependencies!).sort()).toEqual(['@types/node', 'typescript', 'vitest']);
    expect(pkg.scripts).toEqual({ start: 'intrabot start', dev: 'intrabot dev', test: 'vitest run', typecheck: 'tsc --noEmit' });
    for (const file of [
      'tsconfig.json',
      'vitest.config.ts',
      'bots/hello/bot.yaml',
      'bots/hello/index.ts',
      'bots/hello/hello.test.ts',
      'bots/hello/templates/hello.hbs',
      'sandbox.env',
      '.gitignore',
      'Dockerfile',
      '.github/workflows/ci.yml',
      'README.md',
    ]) {
      expect(io.out, file).toContain(`  ${file}\n`);
      expect(readFileSync(join(dir, file), 'utf8'), file).not.toBe('');
    }
    expect(io.out).toContain('Next:\n  cd "My Bots"\n  npm install\n  npm test');
    expect(io.out).toContain('  npm start');
  });

  it('scaffolds a hello bot that imports intrabot by name only and loads', async () => {
    const bots = join(tmp, 'My Bots', 'bots');
    const sources = ['index.ts', 'hello.test.ts'].map((f) => readFileSync(join(bots, 'hello', f), 'utf8')).join('\n');
    expect([...sources.matchAll(/from '([^']+)'/g)].map((m) => m[1]).sort()).toEqual(['intrabot', 'intrabot/testing', 'node:url', 'vitest']);
    const registry = await loadBots(bots, {});
    expect(registry.failures).toEqual([]);
    expect(registry.bots.map((b) => b.name)).toEqual(['hello']);
  });

  it('takes --intrabot as a version as it is, a tarball as a copy in the project (file:vendor/...), or a built folder as a file: path from the project', async () => {
    const tarball = join(tmp, 'intrabot-9.9.9.tgz');
    writeFileSync(tarball, 'tarball bytes');
    const checkout = join(tmp, 'checkout');
    mkdirSync(join(checkout, 'dist'), { recursive: true });
    writeFileSync(join(checkout, 'package.json'), '{"name": "intrabot"}');
    writeFileSync(join(checkout, 'dist', 'index.js'), '');
    const cases: [string, string][] = [
      ['1.2.3', '1.2.3'],
      ['./intrabot-9.9.9.tgz', 'file:vendor/intrabot-9.9.9.tgz'],
      [tarball, 'file:vendor/intrabot-9.9.9.tgz'],
      ['checkout', 'file:../checkout'],
    ];
    for (const [given, written] of cases) {
      const project = `p-${readdirSync(tmp).length}`;
      const io = captureIo({}, tmp);
      expect(await runInit([project, '--intrabot', given], io), given).toBe(0);
      expect(readJson(join(tmp, project, 'package.json')).dependencies, given).toEqual({ intrabot: written });
      const vendored = written.startsWith('file:vendor/');
      expect(existsSync(join(tmp, project, 'vendor')), given).toBe(vendored);
      if (vendored) {
        expect(readFileSync(join(tmp, project, 'vendor', 'intrabot-9.9.9.tgz'), 'utf8')).toBe('tarball bytes');
        expect(io.out).toContain('  vendor/intrabot-9.9.9.tgz\n');
      }
      // a folder is a link to this machine: said, since the project's CI and Docker build cannot follow it
      expect(io.out.includes('a link to a folder on this machine'), given).toBe(given === 'checkout');
    }
  });

  it('keeps a tarball given to --intrabot where a clone has it: committed by git even under a global ignore of *.tgz, copied by the Dockerfile before npm ci', async () => {
    const project = join(tmp, 'vendored');
    writeFileSync(join(tmp, 'intrabot-9.9.8.tgz'), 'tarball bytes');
    expect(await runInit(['vendored', '--intrabot', './intrabot-9.9.8.tgz'], captureIo({}, tmp))).toBe(0);
    // a user's global excludes that would drop the tarball; the project's .gitignore takes precedence
    const excludes = join(tmp, 'global-excludes');
    writeFileSync(excludes, '*.tgz\nvendor/\n');
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', `core.excludesFile=${excludes}`, ...args], { cwd: project, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    expect(git('init', '-q').status).toBe(0);
    expect(git('add', '-A').status).toBe(0);
    const staged = git('ls-files').stdout.split('\n');
    expect(staged).toContain('vendor/intrabot-9.9.8.tgz');
    expect(staged).toContain('package.json');
    // the check can fail: without the project's .gitignore the tarball is ignored
    rmSync(join(project, '.gitignore'));
    expect(git('check-ignore', '--no-index', '-q', 'vendor/intrabot-9.9.8.tgz').status).toBe(0);

    const dockerfile = readFileSync(join(project, 'Dockerfile'), 'utf8').split('\n');
    const copy = dockerfile.indexOf('COPY vendor/ ./vendor/');
    expect(copy).toBeGreaterThan(dockerfile.indexOf('COPY package.json package-lock.json ./'));
    expect(copy).toBeLessThan(dockerfile.indexOf('RUN npm ci --omit=dev'));
    expect(readFileSync(join(project, '.dockerignore'), 'utf8')).not.toMatch(/vendor|tgz/);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toContain('`vendor/intrabot-9.9.8.tgz`:\ncommit');
  });

  it('writes no vendor/ copy into the Dockerfile or the .gitignore of a project that depends on a version', () => {
    const dir = join(tmp, 'My Bots');
    expect(readFileSync(join(dir, 'Dockerfile'), 'utf8')).not.toContain('vendor');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).not.toContain('vendor');
  });

  it("points only at docs that the package ships: every node_modules/intrabot/docs/ path in the scaffold exists and is in package.json's files", () => {
    const own = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    const shipped = (path: string) => own.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
    const texts = [...walk(join(tmp, 'My Bots'))].map((file) => readFileSync(file, 'utf8'));
    const paths = new Set(texts.flatMap((text) => [...text.matchAll(/node_modules\/intrabot\/([\w./-]+\.md)/g)].map((m) => m[1]!)));
    // the bot's manifest and the README's reference list, at least
    expect([...paths]).toEqual(expect.arrayContaining(['docs/manifest.md', 'docs/context.md', 'docs/testing.md']));
    for (const path of paths) {
      expect(existsSync(join(ROOT, path)), path).toBe(true);
      expect(shipped(path), path).toBe(true);
    }
  });

  it('refuses a folder that is not empty, a missing tarball and a folder that is not a built intrabot, with exit code 2, writing nothing', async () => {
    const notBuilt = join(tmp, 'not-built');
    mkdirSync(notBuilt);
    writeFileSync(join(notBuilt, 'package.json'), '{"name": "intrabot"}');
    const before = readdirSync(tmp).sort();
    const refusals: [string[], string][] = [
      [['My Bots'], 'not empty'],
      [['fresh', '--intrabot', './missing.tgz'], 'does not exist'],
      [['fresh', '--intrabot', 'not-built'], 'npm run build'],
      [['fresh', '--intrabot', 'My Bots'], 'is not intrabot'],
      [[], 'give exactly one folder'],
    ];
    for (const [args, message] of refusals) {
      const io = captureIo({}, tmp);
      expect(await runInit(args, io), args.join(' ')).toBe(2);
      expect(io.err, args.join(' ')).toContain(message);
    }
    expect(readdirSync(tmp).sort()).toEqual(before);
  });
});
