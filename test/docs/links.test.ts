// The README and the pages under docs/ link to each other and to headings; a moved section or a renamed
// heading would leave a link that goes nowhere. These tests resolve every relative link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a page's headings (github-slugger: lower case, punctuation dropped, spaces to dashes, repeats numbered). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a page: `[text](target)` and images, with the target split into file and anchor. */
function linksOf(markdown: string): { target: string; file: string; anchor: string | undefined }[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [file = '', anchor] = target.split('#', 2);
      return { target, file, anchor };
    });
}

describe('the documentation', () => {
  it('has a README and reference pages under docs/', () => {
    expect(PAGES.length).toBeGreaterThan(5);
  });

  for (const page of PAGES) {
    it(`resolves every relative link and anchor of ${page}`, () => {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const broken: string[] = [];
      for (const link of linksOf(text)) {
        const path = link.file === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(link.file));
        if (!path.startsWith(ROOT) || !existsSync(path)) {
          broken.push(`${link.target}: no file ${relative(ROOT, path)}`);
          continue;
        }
        if (link.anchor === undefined) continue;
        if (!path.endsWith('.md') || statSync(path).isDirectory()) {
          broken.push(`${link.target}: an anchor into a file that is not a markdown page`);
          continue;
        }
        if (!anchorsOf(readFileSync(path, 'utf8')).has(link.anchor)) broken.push(`${link.target}: no heading with that anchor in ${relative(ROOT, path)}`);
      }
      expect(broken).toEqual([]);
    });
  }

  it("answers on the README's first screen what intrabot is, the two set-up commands and where to go next", () => {
    const screen = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').slice(0, 40).join('\n');
    const [, commands] = /```sh\n([\s\S]*?)```/.exec(screen) ?? [];
    expect(
      commands
        ?.trim()
        .split('\n')
        .map((line) => line.replace(/#.*/, '').trim()),
    ).toEqual(['npm install && npm start', 'npm test']);
    expect(screen).toMatch(/^A TypeScript framework for bots/m);
    expect(screen).toContain('Where to go next');
    expect(screen).toContain('(docs/troubleshooting.md)');
  });

  it('links every docs/ page from the README', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = new Set(linksOf(readme).map((l) => l.file));
    expect(PAGES.filter((p) => p !== 'README.md' && !linked.has(p))).toEqual([]);
  });

  it('starts each docs/ page with its title, a one-line purpose and a table of contents of its sections', () => {
    for (const page of PAGES.filter((p) => p !== 'README.md')) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      const [title, , purpose, , firstEntry] = text.split('\n');
      expect(title, page).toMatch(/^# \S/);
      expect(purpose, page).toMatch(/^[A-Z`]/);
      expect(firstEntry, page).toMatch(/^- \[[^\]]+\]\(#[^)]+\)$/);
    }
  });
});

describe('anchorsOf', () => {
  it('names headings as GitHub does: lower case, punctuation and code marks dropped, repeats numbered', () => {
    const anchors = anchorsOf('# Manifest reference (`bot.yaml`)\n## Forward alerts from Alertmanager / Grafana / any tool\n## Set up\n## Set up\n');
    expect([...anchors]).toEqual(['manifest-reference-botyaml', 'forward-alerts-from-alertmanager--grafana--any-tool', 'set-up', 'set-up-1']);
  });
});
