import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBotDirs, loadManifest } from '../../src/bots/manifest-loader';
import { ManifestError } from '../../src/bots/manifest-error';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'intrabot-bots-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function bot(folder: string, yaml: string | undefined): Promise<void> {
  await mkdir(join(root, folder), { recursive: true });
  if (yaml !== undefined) await writeFile(join(root, folder, 'bot.yaml'), yaml);
}

describe('loadManifest', () => {
  it('reads and validates one bot.yaml', async () => {
    await bot('greeter', 'name: greeter\ndisplay_name: ${env:GREETER_NAME}\n');
    const manifest = await loadManifest(join(root, 'greeter', 'bot.yaml'), { GREETER_NAME: 'Greeter' });
    expect(manifest.display_name).toBe('Greeter');
  });

  it('names the file when it cannot be read', async () => {
    const file = join(root, 'missing', 'bot.yaml');
    await expect(loadManifest(file, {})).rejects.toMatchObject({ code: 'invalid_manifest', file, field: '(file)' });
  });
});

describe('loadBotDirs', () => {
  it('loads every valid bot and reports an invalid one without stopping the others', async () => {
    await bot('alpha', 'name: alpha\ndisplay_name: Alpha\n');
    await bot('broken', 'name: broken\ndisplay_name: Broken\nevents:\n  - event: test\n    walls: [1]\n');
    await bot('gamma', 'name: gamma\ndisplay_name: Gamma\n');
    const loaded = await loadBotDirs(root, {});
    expect(loaded.map((b) => [b.dir, b.ok])).toEqual([
      [join(root, 'alpha'), true],
      [join(root, 'broken'), false],
      [join(root, 'gamma'), true],
    ]);
    const broken = loaded[1];
    if (broken?.ok !== false) throw new Error('expected broken to fail');
    expect(broken.error).toBeInstanceOf(ManifestError);
    expect(broken.error.message).toContain(`${join(root, 'broken', 'bot.yaml')}:5 events.0.walls`);
  });

  it('leaves names to loadBots, which knows which bots load in the end: two folders with one name both read', async () => {
    await bot('a-one', 'name: same\ndisplay_name: One\n');
    await bot('b-two', 'name: same\ndisplay_name: Two\n');
    expect((await loadBotDirs(root, {})).map((b) => b.ok)).toEqual([true, true]);
  });

  it('skips folders without a bot.yaml and hidden or underscore folders', async () => {
    await bot('alpha', 'name: alpha\ndisplay_name: Alpha\n');
    await bot('shared-code', undefined);
    await bot('_template', 'name: tpl\ndisplay_name: T\n');
    await writeFile(join(root, 'README.md'), '# bots');
    expect((await loadBotDirs(root, {})).map((b) => b.dir)).toEqual([join(root, 'alpha')]);
  });

  it('answers an empty list for a missing bots folder', async () => {
    expect(await loadBotDirs(join(root, 'nope'), {})).toEqual([]);
  });
});
