import { readSettingFiles } from '../runtime/config/setting-files';

/**
 * What a CLI command reads and writes, and the small helpers that make its output readable: colours
 * only on a terminal (and never with `NO_COLOR`), aligned tables, and a progress line that redraws in
 * place on a terminal and prints plain lines otherwise (so logs and pipes stay clean).
 */

/** The process as a command sees it; the CLI passes the real one, tests their own. */
export interface CliIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal (colours, redrawn progress lines). */
  isTTY: boolean;
}

/**
 * The running process's streams and environment, each secret given as `<NAME>_FILE` read into `<NAME>`
 * (so every command, not only `start`, finds `INTRABOT_ADMIN_TOKEN` mounted as a file). A file that
 * cannot be read stays as it was given, for `loadConfig` to report with the other problems.
 */
export function processIo(): CliIo {
  return {
    env: readSettingFiles(process.env).env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTTY: process.stdout.isTTY === true,
  };
}

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const;
export type Colour = keyof typeof CODES;
export type Paint = Record<Colour, (text: string) => string>;

/**
 * Colour functions: ANSI codes on a terminal without `NO_COLOR` (https://no-color.org), identity otherwise.
 *
 * @example paint(io).green('ok')
 */
export function paint(io: Pick<CliIo, 'env' | 'isTTY'>): Paint {
  const on = io.isTTY && !('NO_COLOR' in io.env && io.env.NO_COLOR !== '');
  const entries = Object.entries(CODES).map(([name, code]) => [name, on ? (t: string) => `\u001b[${code}m${t}\u001b[0m` : (t: string) => t]);
  return Object.fromEntries(entries) as Paint;
}

/** Rows aligned under a header; the last column is not padded. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

export interface Progress {
  /** Says what is happening now (redraws the line on a terminal; a plain line otherwise). */
  update(text: string): void;
  /** Ends the progress with a final line. */
  done(text: string): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A progress line for long work. On a terminal it spins and redraws in place (with `\r`);
 * elsewhere each update is one plain line, so a CI log reads top to bottom.
 *
 * @example
 * const p = progress(io, 'provisioning 3 tenants');
 * p.update('tenant acme'); p.done('provisioned 3 tenants');
 */
export function progress(io: CliIo, label: string): Progress {
  if (!io.isTTY) {
    io.stdout(`${label}...\n`);
    return { update: (text) => io.stdout(`  ${text}\n`), done: (text) => io.stdout(`${text}\n`) };
  }
  let frame = 0;
  let current = label;
  const draw = (): void => io.stdout(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${current}`);
  const timer = setInterval(draw, 80);
  timer.unref();
  draw();
  return {
    update(text) {
      current = `${label}: ${text}`;
      draw();
    },
    done(text) {
      clearInterval(timer);
      io.stdout(`\r\u001b[2K${text}\n`);
    },
  };
}

/** An error's message for the user (never a stack; secrets are kept out of messages where errors are made). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
