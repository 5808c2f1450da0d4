import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTemplateEngine } from '../../src/templates/template-engine';
import { TemplateError } from '../../src/templates/template-error';

let root: string;
let botDir: string;
let sharedDir: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'intrabot-templates-'));
  botDir = join(root, 'bots', 'ops', 'templates');
  sharedDir = join(root, 'templates');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function template(dir: string, name: string, source: string): Promise<void> {
  const file = join(dir, `${name}.hbs`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, source);
}

function engine(strict?: boolean) {
  return createTemplateEngine({ dirs: [botDir, sharedDir], timezone: 'Europe/Berlin', locale: 'en-GB', ...(strict === undefined ? {} : { strict }) });
}

describe('createTemplateEngine', () => {
  it("loads alerts/firing from <dir>/alerts/firing.hbs, the bot's dir before the shared one", async () => {
    await template(sharedDir, 'alerts/firing', 'shared {{name}}');
    await template(sharedDir, 'alerts/resolved', 'resolved {{name}}');
    await template(botDir, 'alerts/firing', 'bot {{name}}');
    const e = engine();
    expect(e.render('alerts/firing', { name: 'disk' })).toBe('bot disk');
    expect(e.render('alerts/resolved', { name: 'disk' })).toBe('resolved disk');
  });

  it("falls back to intrabot's own templates, which a project's template of the same name overrides", async () => {
    // a bots project outside this repository has no alerts/ templates of its own: the package's are used
    const e = engine();
    expect(e.has('alerts/firing')).toBe(true);
    expect(e.has('alerts/digest')).toBe(true);
    await template(sharedDir, 'alerts/firing', 'project {{name}}');
    expect(engine().render('alerts/firing', { name: 'disk' })).toBe('project disk');
  });

  it('caches compiled templates until the cache is cleared', async () => {
    await template(sharedDir, 'hello', 'v1');
    const e = engine();
    expect(e.render('hello')).toBe('v1');
    await template(sharedDir, 'hello', 'v2');
    expect(e.render('hello')).toBe('v1');
    e.clearCache();
    expect(e.render('hello')).toBe('v2');
  });

  it('never HTML-escapes: <, &, and quotes come out as written', () => {
    const text = `<b>Tom & "Jerry"</b> isn't 'here' \`x\` a=b`;
    expect(engine().renderString('{{text}}', { text })).toBe(text);
  });

  it('prints values without evaluating them as templates', () => {
    const data = { title: '{{constructor}} {{#each x}}y{{/each}} {{> partial}}' };
    expect(engine().renderString('Alert: {{title}}', data)).toBe(`Alert: ${data.title}`);
  });

  it('does not reach prototype properties through data', () => {
    expect(engine(false).renderString('[{{constructor.name}}][{{__proto__}}]', {})).toBe('[][]');
  });

  it('in strict mode names the template and the missing field', async () => {
    await template(sharedDir, 'digest', 'Hi {{usr.name}}');
    expect(() => engine().render('digest', { user: { name: 'Ada' } })).toThrow(TemplateError);
    expect(() => engine().render('digest', { user: { name: 'Ada' } })).toThrow(/^template digest: .*not defined/);
    expect(engine(false).render('digest', {})).toBe('Hi ');
  });

  it('lets optional fields be tested with #if in strict mode', () => {
    expect(engine().renderString('{{#if note}}Note: {{note}}{{/if}}done', {})).toBe('done');
  });

  it('refuses a missing template and names that traverse outside the dirs', async () => {
    expect(() => engine().render('nope')).toThrow(/template nope: not found/);
    for (const name of ['../secret', '/etc/passwd', 'a/../b', 'a.hbs']) {
      expect(() => engine().render(name)).toThrow(TemplateError);
    }
    expect(engine().has('nope')).toBe(false);
  });

  it('keeps helpers to its own instance', () => {
    const berlin = createTemplateEngine({ dirs: [], timezone: 'Europe/Berlin', locale: 'en-GB' });
    const ny = createTemplateEngine({ dirs: [], timezone: 'America/New_York', locale: 'en-US' });
    const at = '2026-11-21T02:30:00Z';
    expect(berlin.renderString('{{date at}}', { at })).toBe('21 November 2026');
    expect(ny.renderString('{{date at}}', { at })).toBe('November 20, 2026');
  });
});
