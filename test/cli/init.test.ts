import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTRABOT_VERSION } from '../../src/api/version';
import { loadBots } from '../../src/bots/registry';
import { runInit } from '../../src/cli/commands/init';
import { captureIo } from './cli-io';

const tmp = mkdtempSync(join(tmpdir(), 'intrabot-cli-init-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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

  it('takes --intrabot as a version as it is, or a tarball or a built folder as a file: path from the project', async () => {
    const tarball = join(tmp, 'intrabot-9.9.9.tgz');
    writeFileSync(tarball, '');
    const checkout = join(tmp, 'checkout');
    mkdirSync(join(checkout, 'dist'), { recursive: true });
    writeFileSync(join(checkout, 'package.json'), '{"name": "intrabot"}');
    writeFileSync(join(checkout, 'dist', 'index.js'), '');
    const cases: [string, string][] = [
      ['1.2.3', '1.2.3'],
      ['./intrabot-9.9.9.tgz', 'file:../intrabot-9.9.9.tgz'],
      [tarball, 'file:../intrabot-9.9.9.tgz'],
      ['checkout', 'file:../checkout'],
    ];
    for (const [given, written] of cases) {
      const project = `p-${readdirSync(tmp).length}`;
      expect(await runInit([project, '--intrabot', given], captureIo({}, tmp)), given).toBe(0);
      expect(readJson(join(tmp, project, 'package.json')).dependencies, given).toEqual({ intrabot: written });
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
