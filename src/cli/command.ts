/** A subcommand of `intrabot`. `run` resolves to the exit code: 0 success, 1 failure, 2 usage error. */
export interface CliCommand {
  name: string;
  /** One line: `api <METHOD> <path> [--data JSON] [--paginate]`. */
  usage: string;
  summary: string;
  run(args: string[]): Promise<number>;
}
