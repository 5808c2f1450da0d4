// docs/architecture.md tells the next maintainer which file and function every step of the runtime's four
// paths lives in. A file moved or a function renamed would leave the page pointing nowhere; these tests
// hold it to the code.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/**
 * Every source path the page names: `src/...` and `test/...` as written (folders end with `/`), and the
 * shorter `runtime/inbox-worker.ts` of the diagrams, which are under `src/`.
 */
function pathsOf(markdown: string): string[] {
  const paths = new Set<string>();
  for (const [path] of markdown.matchAll(/(?<![\w./-])(?:[\w-]+\/)+(?:[\w.-]+\.ts\b)?/g)) {
    if (!path.endsWith('.ts') && !path.startsWith('src/')) continue;
    paths.add(path.startsWith('src/') || path.startsWith('test/') ? path : `src/${path}`);
  }
  return [...paths];
}

interface Step {
  section: string;
  file: string;
  name: string;
}

/** The steps of the three paths: rows `| # | step | file | function or class |`, the name being the first code span. */
function stepsOf(markdown: string): Step[] {
  const steps: Step[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1]!;
    if (!section.startsWith('Path ')) continue;
    const cells = line.split('|').map((cell) => cell.trim());
    // ['', '#', 'step', 'file', 'function or class', '']
    if (cells.length !== 6 || !/^\d+$/.test(cells[1]!)) continue;
    const file = /^`(src\/[^`]+)`$/.exec(cells[3]!)?.[1];
    const name = /`([\w.]+)`/.exec(cells[4]!)?.[1];
    steps.push({ section, file: file ?? `(no single file: ${cells[3]})`, name: name ?? `(no name: ${cells[4]})` });
  }
  return steps;
}

/** Whether `source` defines `name`: a function, class, const, or a method (`Class.method` needs both). */
function defines(source: string, name: string): boolean {
  return name
    .split('.')
    .every((part) =>
      new RegExp(
        `(?:function\\s+${part}\\b|class\\s+${part}\\b|(?:const|let)\\s+${part}\\s*=|^\\s*(?:(?:private|protected|public|static|async|readonly)\\s+)*${part}\\s*[(<])`,
        'm',
      ).test(source),
    );
}

describe('docs/architecture.md', () => {
  it('names only source files and folders that exist', () => {
    const paths = pathsOf(PAGE);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('writes each of the four paths as numbered steps, each naming one file and a function or class', () => {
    const steps = stepsOf(PAGE);
    const sections = new Set(steps.map((step) => step.section));
    expect([...sections]).toEqual([
      "Path 1: a signed event to a bot's reply",
      'Path 2: a cron slot to a post',
      'Path 3: an alert to a post',
      'Path 4: a question to its answer',
    ]);
    expect(steps.filter((step) => step.file.startsWith('(') || step.name.startsWith('('))).toEqual([]);
  });

  it('names, in each step, a function or class that its file defines', () => {
    const wrong = stepsOf(PAGE)
      .filter((step) => existsSync(join(ROOT, step.file)))
      .filter((step) => !defines(readFileSync(join(ROOT, step.file), 'utf8'), step.name))
      .map((step) => `${step.section}: ${step.name} is not defined in ${step.file}`);
    expect(wrong).toEqual([]);
  });
});

describe('pathsOf', () => {
  it('finds paths under src/ and test/, folders, and the short paths of diagrams (as under src/)', () => {
    const text = 'see `src/runtime/build-runtime.ts`, `src/alerts/adapters/`, runtime/inbox-worker.ts<br/> and test/docs/links.test.ts; not bot.yaml';
    expect(pathsOf(text)).toEqual(['src/runtime/build-runtime.ts', 'src/alerts/adapters/', 'src/runtime/inbox-worker.ts', 'test/docs/links.test.ts']);
  });
});

describe('defines', () => {
  it('accepts functions, classes, consts and methods, and refuses names that are only called', () => {
    const source = 'export class Outbox {\n  async enqueue(input: unknown) {}\n}\nfunction planRetry() {}\nconst reply = async () => {};\nuse(sendEntry);\n';
    expect(['Outbox.enqueue', 'planRetry', 'reply'].filter((name) => !defines(source, name))).toEqual([]);
    expect(defines(source, 'sendEntry')).toBe(false);
    expect(defines(source, 'Outbox.stashMedia')).toBe(false);
  });
});
