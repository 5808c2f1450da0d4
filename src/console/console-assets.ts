import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from '../package-root';

/** One file the console serves, read once at start. */
export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

export interface ConsoleAssets {
  /** By path under `/console/` (`index.html`, `app.mjs`, `vendor/preact.mjs`...). */
  files: ReadonlyMap<string, Asset>;
  /** The Content-Security-Policy of the page: scripts from this origin only, plus the import map by its hash. */
  csp: string;
}

/**
 * Where the page's own files live: plain ES modules, no build step. In this repository they are under
 * `src/`; an installed package has no `src/` and ships them in `dist/` (scripts/build-package.mjs).
 */
export const PUBLIC_DIR =
  [join(PACKAGE_ROOT, 'src', 'console', 'public'), join(PACKAGE_ROOT, 'dist', 'console', 'public')].find((dir) => existsSync(join(dir, 'index.html'))) ??
  join(PACKAGE_ROOT, 'src', 'console', 'public');

/** The front-end's packages, served from the installed package as ES modules (the machine may have no internet: no CDN). */
const VENDOR = [
  { name: 'preact', file: 'dist/preact.mjs', as: 'vendor/preact.mjs', specifier: 'preact' },
  { name: 'preact', file: 'hooks/dist/hooks.mjs', as: 'vendor/preact-hooks.mjs', specifier: 'preact/hooks' },
  { name: 'htm', file: 'dist/htm.mjs', as: 'vendor/htm.mjs', specifier: 'htm' },
] as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Reads the page, its modules and the vendored packages into memory (about 60 KB), and writes the
 * import map that lets the modules say `import { h } from 'preact'`.
 */
export function loadConsoleAssets(publicDir = PUBLIC_DIR): ConsoleAssets {
  const files = new Map<string, Asset>();
  for (const path of listFiles(publicDir)) {
    const name = relative(publicDir, path).split(sep).join('/');
    if (name === 'index.html') continue;
    files.set(name, asset(readFileSync(path), TYPES[extname(path)] ?? 'application/octet-stream'));
  }
  const imports: Record<string, string> = {};
  for (const vendor of VENDOR) {
    // the packages' own source map comments point at files not served: dropped, not to send the browser after them
    const code = readFileSync(join(packageDir(vendor.name), vendor.file), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
    files.set(vendor.as, asset(Buffer.from(code), TYPES['.mjs']!));
    // relative to the page, `/console/` (under a host app's prefix too)
    imports[vendor.specifier] = `./${vendor.as}`;
  }
  const importMap = JSON.stringify({ imports });
  const html = readFileSync(join(publicDir, 'index.html'), 'utf8').replace('<!--importmap-->', `<script type="importmap">${importMap}</script>`);
  files.set('index.html', asset(Buffer.from(html), TYPES['.html']!));
  const mapHash = createHash('sha256').update(importMap).digest('base64');
  const csp = [
    "default-src 'none'",
    `script-src 'self' 'sha256-${mapHash}'`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { files, csp };
}

function asset(body: Buffer, type: string): Asset {
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    return entry.isFile() ? [path] : [];
  });
}

/** A package's folder as Node would find it from intrabot's own (hoisted or nested node_modules). */
function packageDir(name: string): string {
  const require = createRequire(join(PACKAGE_ROOT, 'package.json'));
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = join(base, name);
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`the console needs the ${name} package: run npm install`);
}
