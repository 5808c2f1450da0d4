import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Handlebars from 'handlebars';
import { PACKAGE_ROOT } from '../package-root';
import type { LocaleSettings } from './date-format';
import { createHelpers } from './helpers';
import { TemplateError } from './template-error';

export interface TemplateEngineOptions extends LocaleSettings {
  /**
   * Searched in order: the bot's own `templates/` first, then the project's shared `templates/`; after
   * them, always, intrabot's own (`BUILT_IN_TEMPLATES_DIR`: the alert templates), which a project
   * overrides by having a template of the same name.
   */
  dirs: readonly string[];
  /** A missing field fails the render instead of printing nothing. Default true. */
  strict?: boolean;
}

export interface TemplateEngine {
  /** Renders `<dir>/<name>.hbs` (`alerts/firing` → `<dir>/alerts/firing.hbs`) from the first dir that has it. */
  render(name: string, data?: unknown): string;
  /** Renders template source written by the bot author. Never pass untrusted text as `source`. */
  renderString(source: string, data?: unknown): string;
  /** Whether a template of that name exists in any dir. */
  has(name: string): boolean;
  /** Forgets compiled templates (for `intrabot dev` reloading). */
  clearCache(): void;
}

/** The templates intrabot ships (`templates/` of the package): the defaults every engine falls back to. */
export const BUILT_IN_TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');

const NAME = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/**
 * A Handlebars engine for post bodies. Post bodies are plain text, so nothing is HTML-escaped
 * (`noEscape`): `<`, `&` and quotes come out as written. Values in `data` are printed, never
 * evaluated: a value holding `{{...}}` stays that text. Put untrusted text through `{{plain x}}`
 * so it cannot mention anyone.
 *
 * @example
 * const engine = createTemplateEngine({ dirs: ['bots/kudos/templates', 'templates'], timezone: 'Europe/Berlin', locale: 'en-GB' });
 * engine.render('kudos/awarded', { user: { name: 'Ada' }, years: 5 });
 */
export function createTemplateEngine(options: TemplateEngineOptions): TemplateEngine {
  return new HandlebarsTemplates(options);
}

/** The engine over an isolated Handlebars environment: helpers registered here never leak into another tenant's engine. */
class HandlebarsTemplates implements TemplateEngine {
  private readonly handlebars = Handlebars.create();
  private readonly compileOptions: Parameters<typeof Handlebars.compile>[1];
  private readonly cache = new Map<string, Handlebars.TemplateDelegate>();
  private readonly dirs: readonly string[];

  constructor(options: TemplateEngineOptions) {
    this.handlebars.registerHelper(createHelpers(options));
    this.compileOptions = { noEscape: true, strict: options.strict ?? true };
    this.dirs = options.dirs.some((dir) => resolve(dir) === BUILT_IN_TEMPLATES_DIR) ? options.dirs : [...options.dirs, BUILT_IN_TEMPLATES_DIR];
  }

  render(name: string, data?: unknown): string {
    return this.run(name, () => this.compiled(name), data);
  }

  renderString(source: string, data?: unknown): string {
    return this.run('(inline)', () => this.handlebars.compile(source, this.compileOptions), data);
  }

  has(name: string): boolean {
    return this.locate(name) !== undefined;
  }

  clearCache(): void {
    this.cache.clear();
  }

  private locate(name: string): string | undefined {
    if (!NAME.test(name)) throw new TemplateError(name, 'a template name is words separated by "/" (such as alerts/firing)');
    for (const dir of this.dirs) {
      const file = join(dir, `${name}.hbs`);
      if (readable(file)) return file;
    }
    return undefined;
  }

  /** The named template, compiled once. */
  private compiled(name: string): Handlebars.TemplateDelegate {
    const cached = this.cache.get(name);
    if (cached) return cached;
    const file = this.locate(name);
    if (!file) throw new TemplateError(name, `not found in ${this.dirs.join(', ')}`);
    const template = this.handlebars.compile(readFileSync(file, 'utf8'), this.compileOptions);
    this.cache.set(name, template);
    return template;
  }

  /** Renders what `template` compiles; a failure is a `TemplateError` naming `label` (a template not found, one that does not parse, a missing field). */

  private run(label: string, template: () => Handlebars.TemplateDelegate, data: unknown): string {
    try {
      return template()(data ?? {});
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      throw new TemplateError(label, error instanceof Error ? (error.message.split('\n')[0] ?? 'failed') : String(error), { cause: error });
    }
  }
}

function readable(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}
