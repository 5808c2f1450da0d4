import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RUNNING_FROM_SOURCE, bundleBot } from '../../bots/bot-bundler';
import type { Middleware } from '../../bots/middleware';
import { ConfigError } from '../../errors';

/**
 * The runtime-wide middleware of the modules named by `INTRABOT_MIDDLEWARE` / `intrabot.yaml: middleware`,
 * in order: each module default-exports a middleware or a list of them. A module that is missing, fails
 * to load or exports something else stops the start, naming the setting and the file. Compiled like a
 * bot (TypeScript, its own imports, the framework's modules shared) when intrabot runs from its build.
 *
 * @example
 * // middleware/timing.ts
 * export default (async (input, ctx, next) => { const t = ctx.now(); await next(); ctx.log.info(`${input.what}: ${ctx.now() - t} ms`); }) satisfies Middleware;
 */
export async function loadMiddlewareModules(files: readonly string[], setting: string): Promise<Middleware[]> {
  const out: Middleware[] = [];
  for (const file of files) {
    if (!existsSync(file)) throw new ConfigError(setting, `${setting}: no middleware module at ${file}`);
    let exported: unknown;
    try {
      const url = RUNNING_FROM_SOURCE
        ? pathToFileURL(file).href
        : pathToFileURL(await bundleBot(`middleware-${basename(file).replace(/\W+/g, '-')}`, file)).href;
      exported = ((await import(url)) as { default?: unknown }).default;
    } catch (err) {
      throw new ConfigError(setting, `${setting}: ${file} failed to load: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    const list = Array.isArray(exported) ? (exported as unknown[]) : [exported];
    if (list.length === 0 || list.some((item) => typeof item !== 'function')) {
      throw new ConfigError(setting, `${setting}: ${file} must default-export a middleware, (input, ctx, next) => ..., or a list of them`);
    }
    out.push(...(list as Middleware[]));
  }
  return out;
}
