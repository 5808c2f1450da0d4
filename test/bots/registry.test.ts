import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBots } from '../../src/bots/registry';

const FRAMEWORK = resolve('src/index.ts');
const VALID = `import { defineBot } from '${FRAMEWORK}';\nexport default defineBot({ on: { 'post.created': async () => undefined } });\n`;
const THROWS_ON_IMPORT = `throw new Error('this module is broken');\n`;

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'intrabot-registry-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A bot folder: its manifest names `name`; `module` is its index.ts (none when undefined). */
async function bot(folder: string, name: string, module: string | undefined): Promise<string> {
  const dir = join(root, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'bot.yaml'), `name: ${name}\ndisplay_name: ${folder}\nevents: [post.created]\n`);
  if (module !== undefined) await writeFile(join(dir, 'index.ts'), module);
  return dir;
}

/** Issue #12, defect 7: an invalid bot with a valid bot's name knocked the valid one out; neither loaded. */
describe('bot names when loading bots', () => {
  it('runs the valid bot of a name when an earlier folder holds an invalid bot of that name', async () => {
    const broken = await bot('a-kudos-broken', 'kudos', THROWS_ON_IMPORT);
    const valid = await bot('b-kudos', 'kudos', VALID);
    const registry = await loadBots(root, {});
    expect(registry.bots.map((b) => [b.name, b.dir])).toEqual([['kudos', valid]]);
    // the invalid one is reported for what is wrong with it, not for its name
    expect(registry.failures.map((f) => [f.dir, f.error.message])).toEqual([[broken, expect.stringContaining('this module is broken')]]);
  });

  it('runs the valid bot of a name when a later folder holds an invalid bot of that name', async () => {
    const valid = await bot('a-kudos', 'kudos', VALID);
    const missing = await bot('b-kudos-nomodule', 'kudos', undefined);
    const registry = await loadBots(root, {});
    expect(registry.bots.map((b) => b.dir)).toEqual([valid]);
    expect(registry.failures.map((f) => [f.dir, f.error.message])).toEqual([[missing, expect.stringContaining('no index.ts')]]);
  });

  it("runs the valid bot of a name when the runtime's own check refuses the other one", async () => {
    const refused = await bot('a-kudos', 'kudos', VALID);
    const valid = await bot('b-kudos', 'kudos', VALID);
    const registry = await loadBots(root, {}, undefined, {
      check: (loaded) => {
        if (loaded.dir === refused) throw new Error('its alert input cannot work');
      },
    });
    expect(registry.bots.map((b) => b.dir)).toEqual([valid]);
    expect(registry.failures.map((f) => [f.dir, f.error.message])).toEqual([[refused, 'its alert input cannot work']]);
  });

  it('refuses the later of two valid bots with one name (in folder order), naming the folder that holds it', async () => {
    const first = await bot('a-kudos', 'kudos', VALID);
    const second = await bot('b-kudos', 'kudos', VALID);
    const registry = await loadBots(root, {});
    expect(registry.bots.map((b) => b.dir)).toEqual([first]);
    expect(registry.failures).toEqual([
      expect.objectContaining({ dir: second, name: 'kudos', error: expect.objectContaining({ code: 'invalid_manifest', field: 'name' }) }),
    ]);
    expect(registry.failures[0]?.error.message).toBe(`${join(second, 'bot.yaml')}:1 name: bot name "kudos" is already used by ${first}`);
  });
});

/** Issue #15, item 3: "config.cities: config.cities: ..." named the field twice. */
describe('the message of a bot refused for its config', () => {
  it('names the file, the line and the field once', async () => {
    const dir = join(root, 'weather');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'bot.yaml'), 'name: weather\ndisplay_name: Weather\nconfig:\n  cities: Berlin\n');
    await writeFile(
      join(dir, 'index.ts'),
      `import { z } from 'zod';\nimport { defineBot } from '${FRAMEWORK}';\nexport default defineBot({ config: z.object({ cities: z.array(z.string()) }) });\n`,
    );
    const registry = await loadBots(root, {});
    const message = registry.failures[0]?.error.message ?? '';
    expect(message).toMatch(new RegExp(`^${join(dir, 'bot.yaml')}:4 config\\.cities: \\S`));
    expect(message.split('config.cities').length - 1).toBe(1);
  });
});
