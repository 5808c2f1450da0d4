import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PACKAGE_ROOT } from '../package-root';

/** One file a page serves, read once at start. */
export interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

export interface PageAssets {
  /** By path under the page's base (`index.html`, `app.mjs`, `vendor/preact.mjs`...). */
  files: ReadonlyMap<string, Asset>;
  /** The Content-Security-Policy of the page: scripts from this origin only, plus the import map by its hash. */
  csp: string;
}

/**
 * Where a folder of page files is: under `src/` in this repository; an installed package has no `src/`
 * and ships the same folder under `dist/` (scripts/build-package.mjs copies it).
 *
 * @example
 * publicDirOf('console/public') // '<package>/src/console/public' in a checkout
 */
export function publicDirOf(folder: string): string {
  const candidates = [join(PACKAGE_ROOT, 'src', folder), join(PACKAGE_ROOT, 'dist', folder)];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0]!;
}

/** The files every page shares: htm over Preact, the small components, the formats of times, the style sheet. */
export const SHARED_PUBLIC_DIR = publicDirOf('web/public');

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
 * Reads a page (its own folder, whose `index.html` has an `<!--importmap-->` marker), the shared files
 * (a page's own file of the same name wins) and the vendored packages into memory, and writes the import
 * map that lets the modules say `import { h } from 'preact'`. No build step: the files are served as they are.
 */
export function loadPageAssets(pageDir: string, sharedDir = SHARED_PUBLIC_DIR): PageAssets {
  const files = new Map<string, Asset>();
  for (const dir of [sharedDir, pageDir]) {
    for (const path of listFiles(dir)) {
      const name = relative(dir, path).split(sep).join('/');
      if (name !== 'index.html') files.set(name, asset(readFileSync(path), TYPES[extname(path)] ?? 'application/octet-stream'));
    }
  }
  const imports: Record<string, string> = {};
  for (const vendor of VENDOR) {
    // the packages' own source map comments point at files not served: dropped, not to send the browser after them
    const code = readFileSync(join(packageDir(vendor.name), vendor.file), 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
    files.set(vendor.as, asset(Buffer.from(code), TYPES['.mjs']!));
    // relative to the page (under a host app's prefix too)
    imports[vendor.specifier] = `./${vendor.as}`;
  }
  const importMap = JSON.stringify({ imports });
  const html = readFileSync(join(pageDir, 'index.html'), 'utf8').replace('<!--importmap-->', `<script type="importmap">${importMap}</script>`);
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

/** Answers one of a page's files, with its ETag (a browser that has it gets a 304); undefined when there is no such file. */
export function sendPageAsset(assets: PageAssets, name: string, request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
  const asset = assets.files.get(name);
  if (!asset) return undefined;
  void reply.header('etag', asset.etag).header('cache-control', 'no-cache').type(asset.type);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.send(asset.body);
}

/** The headers every page answer carries: its CSP, no sniffing, no framing, no referrer, its own origin only. */
export function pageSecurityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
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
  throw new Error(`intrabot's web pages need the ${name} package: run npm install`);
}
