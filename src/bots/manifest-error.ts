import { IntrabotError, type IntrabotErrorOptions } from '../errors';

/**
 * A bot manifest that cannot be used. The message reads `<file>:<line> <field>: <what is wrong>`,
 * like a compiler's, so an editor can jump to it.
 */
export class ManifestError extends IntrabotError {
  readonly file: string;
  readonly line: number;
  readonly field: string;

  constructor(location: { file: string; line: number; field: string }, problem: string, options: IntrabotErrorOptions = {}) {
    const { file, line, field } = location;
    super('invalid_manifest', `${file}:${line} ${field}: ${problem}`, { ...options, details: { file, line, field, ...options.details } });
    this.file = file;
    this.line = line;
    this.field = field;
  }
}
