import { ConfigError } from '../../errors';

/** One setting that stops the runtime from starting, with what it needs (issue #24: all of them in one run). */
export interface SettingProblem {
  /** The setting as the user set it (`INTRABOT_TOKEN`, `intrabot.yaml: tenants[0].token`). */
  setting: string;
  /** The whole line for the user, starting with the setting's name. */
  message: string;
}

/**
 * Every setting that is missing or invalid, in one error: a new user learns all of them from one run,
 * not one per run. `key` is the first setting (so code that names one setting still can); `problems`
 * lists each. With one problem the message is that problem's line alone.
 */
export class SettingsError extends ConfigError {
  readonly problems: readonly SettingProblem[];
  constructor(problems: readonly SettingProblem[]) {
    const [first] = problems;
    super(first?.setting ?? '(config)', settingsMessage(problems), { details: { problems: problems.map((p) => p.setting) } });
    this.problems = problems;
  }
}

function settingsMessage(problems: readonly SettingProblem[]): string {
  if (problems.length === 1) return problems[0]!.message;
  return `${problems.length} settings need fixing:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`;
}

/**
 * Gathers problems while the configuration is read, so a check that fails does not hide the next one.
 *
 * @example
 * const problems = new ConfigProblems();
 * problems.add('INTRABOT_PORT', 'INTRABOT_PORT: must be a port number (0-65535), got "eighty"');
 * problems.throwIfAny();
 */
export class ConfigProblems {
  private readonly list: SettingProblem[] = [];

  add(setting: string, message: string): void {
    // one line per setting: a second complaint about the same one (or about `X` when `X_FILE` could not
    // be read) adds nothing the user can act on
    if (this.list.some((p) => p.setting === setting || p.setting === `${setting}_FILE`)) return;
    this.list.push({ setting, message });
  }

  /** Runs `fn`; a `ConfigError` it throws becomes a problem (named by its key), and `fallback` is returned. */
  collect<T>(fn: () => T, fallback: T): T {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      if (error instanceof SettingsError) for (const p of error.problems) this.add(p.setting, p.message);
      else this.add(error.key, error.message);
      return fallback;
    }
  }

  get size(): number {
    return this.list.length;
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new SettingsError(this.list);
  }
}
