import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { botTemplateNames, botTemplatesDir, filesOf, renamedFile } from '../bot-templates';
import type { CliCommand } from '../command';
import { messageOf, paint, processIo, type CliIo } from '../output';

const USAGE = 'new <name> [--from <example bot>]';

/** What a template's text files are; anything else is copied byte for byte. */
const TEXT_FILE = /\.(ts|mts|js|mjs|json|ya?ml|hbs|md|txt|csv|xml|ics|rss|atom)$/;

/** The same rule as a manifest's `name` (src/bots/manifest-parts.ts, SlugSchema). */
const SLUG = /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/;

/**
 * Where a scaffold points for the manifest's reference: the installed package's copy, which every
 * bots project has (intrabot ships its docs); intrabot's own repository has it at docs/manifest.md.
 */
export const MANIFEST_DOC = 'node_modules/intrabot/docs/manifest.md';

/**
 * The files of a new bot, by path relative to its folder. They import the framework by its package
 * name (`intrabot`, `intrabot/testing`), in a bots project as in intrabot's own repository. Its one
 * command is named after the bot (`/standup` for `standup`): bot names are unique in a bots folder,
 * so two scaffolded bots never both answer the same command.
 */
export function scaffoldFiles(name: string): Record<string, string> {
  const display = `${name
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')}${/bot$/i.test(name) ? '' : ' Bot'}`;
  return {
    'bot.yaml': botYaml(name, display),
    'index.ts': botModule(name),
    'templates/hello.hbs': '{{greeting}}, {{name}}!\n',
    [`${name}.test.ts`]: botTest(name),
  };
}

function botYaml(name: string, display: string): string {
  return [
    `# ${display}: answers /${name} on the walls it listens to. Every field: ${MANIFEST_DOC}`,
    "# (docs/manifest.md in intrabot's own repository).",
    `name: ${name}`,
    `display_name: ${display}`,
    'events: [post.created, comment.created]',
    '# how ctx.reply answers: a comment under the post, a bot post on the same wall, or a direct message',
    'reply: comment',
    'config:',
    '  greeting: Hello',
    '',
  ].join('\n');
}

/** A command name as an object key: bare when it is an identifier, quoted when it has a dash. */
function commandKey(name: string): string {
  return /^[a-z][a-z0-9_]*$/.test(name) ? name : `'${name}'`;
}

function botModule(name: string): string {
  return `import { defineBot, z } from 'intrabot';

export default defineBot({
  config: z.object({ greeting: z.string().default('Hello') }),
  commands: {
    // named after the bot, so that it is the only one to answer it
    ${commandKey(name)}: {
      description: 'Says hello back',
      run: async (cmd, ctx) => ctx.reply({ template: 'hello', data: { greeting: ctx.config.greeting, name: cmd.user.name } }),
    },
  },
});
`;
}

function botTest(name: string): string {
  return `import { fileURLToPath } from 'node:url';
import { startPair, testBot, type Pair } from 'intrabot/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// In process: the command runs against a context that records what it sends; no sandbox, no HTTP.
// Fast, so most of a bot's tests look like this one (\`ctx.api\` answers come from stubs: see testBot).
describe('${name}, in process', () => {
  it('answers /${name} with a greeting that names the author', async () => {
    const bot = await testBot(new URL('.', import.meta.url));
    const sent = await bot.command('/${name}', { user: { id: 7, name: 'Ada Lovelace' } });
    expect(sent).toEqual([{ kind: 'comment', postId: expect.any(Number), text: 'Hello, Ada Lovelace!' }]);
  });
});

// End to end: a sandbox and a runtime with this bot, over real HTTP, as in production.
describe('${name}, end to end', () => {
  let pair: Pair;

  beforeAll(async () => {
    // the folder holding this bot, wherever the repository is
    pair = await startPair({ bots: ['${name}'], botsDir: fileURLToPath(new URL('..', import.meta.url)) });
  });
  afterAll(async () => pair?.close());

  it('answers /${name} posted on the sandbox with a comment', async () => {
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/${name}' });
    const comments = await pair.platform.waitFor(() => pair.platform.commentsOn(post.id), (c) => c.length > 0);
    expect(comments[0]?.body).toMatch(/^Hello, \\S.*!$/);
  });
});
`;
}

/** Why a bot cannot be called `name`, or `undefined` when it can. */
function nameProblem(name: string): string | undefined {
  if (!SLUG.test(name)) {
    return `"${name}" is not a valid bot name: use lower-case letters, digits, dashes or underscores, starting with a letter (e.g. "standup-bot")`;
  }
  // the bot's command is named after it, and /help is every bot's automatic list of its commands
  if (name === 'help') return '"help" cannot name a bot: its command would be /help, which every bot answers with its list of commands';
  return undefined;
}

/**
 * The files of an example bot, renamed for `name` (`renamedFile`), or why there are none: the template
 * is not an example bot this intrabot ships (the reply lists those it has).
 */
function templateFiles(template: string, name: string): Record<string, string | Buffer> | string {
  const dir = botTemplatesDir();
  const known = botTemplateNames(dir);
  if (!known.includes(template))
    return `no example bot "${template}" to start from (${known.length > 0 ? `there are: ${known.join(', ')}` : 'this intrabot ships none'})`;
  const files: Record<string, string | Buffer> = {};
  for (const path of filesOf(join(dir, template))) {
    const file = join(dir, template, path);
    // images and other bytes are copied as they are; text is renamed
    files[path] = TEXT_FILE.test(path) ? renamedFile(path, readFileSync(file, 'utf8'), template, name) : readFileSync(file);
  }
  return files;
}

/** `intrabot new <name>`: scaffolds `bots/<name>/` (or under `INTRABOT_BOTS_DIR`) with a working bot and its test. */
export async function runNew(args: string[], io: CliIo): Promise<number> {
  const c = paint(io);
  let positionals: string[];
  let from: string | undefined;
  try {
    const parsed = parseArgs({ args, strict: true, allowPositionals: true, options: { from: { type: 'string' } } });
    positionals = parsed.positionals;
    from = parsed.values.from;
  } catch (error) {
    io.stderr(`intrabot new: ${messageOf(error)}\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const [name, ...extra] = positionals;
  if (!name || extra.length > 0) {
    io.stderr(`intrabot new: give exactly one bot name\nUsage: intrabot ${USAGE}\n`);
    return 2;
  }
  const refused = nameProblem(name);
  if (refused) {
    io.stderr(`intrabot new: ${refused}\n`);
    return 2;
  }
  const botsDir = resolve(io.cwd, io.env.INTRABOT_BOTS_DIR || 'bots');
  const botDir = join(botsDir, name);
  if (existsSync(botDir)) {
    io.stderr(`intrabot new: ${botDir} already exists; choose another name or remove the folder\n`);
    return 2;
  }
  const files = from === undefined ? scaffoldFiles(name) : templateFiles(from, name);
  if (typeof files === 'string') {
    io.stderr(`intrabot new: ${files}\n`);
    return 2;
  }
  for (const [path, text] of Object.entries(files)) {
    const file = join(botDir, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text, { flag: 'wx' });
  }
  const shown = relative(io.cwd, botDir) || botDir;
  io.stdout(
    [
      `${c.green('created')} ${shown}/`,
      ...Object.keys(files).map((f) => `  ${f}`),
      '',
      'Next:',
      `  npx vitest run ${shown}  ${c.dim(from === undefined ? '# its test, against the sandbox' : `# its tests, as they ran for ${from}`)}`,
      from === undefined
        ? `  npm start  ${c.dim(`# then post "/${name}" on a wall of the sandbox`)}`
        : `  npm start  ${c.dim(`# what it does: ${shown}/README.md, or intrabot's docs/example-bots.md#${from}`)}`,
      '',
    ].join('\n'),
  );
  return 0;
}

export const command: CliCommand = {
  name: 'new',
  usage: USAGE,
  summary: 'Scaffold a bot (manifest, module, template and a test) in bots/<name>/, or copy an example bot with --from <example>',
  run: (args) => runNew(args, processIo()),
};
