import { buildOpenApiDocument } from '../../api/openapi';
import type { CliCommand } from '../command';

/** Where `run` writes; the CLI passes the process streams, tests collectors. */
export interface OpenApiCommandDeps {
  stdout(text: string): void;
  stderr(text: string): void;
}

const USAGE = 'openapi [--server-url URL] [--compact]';

/** Reads `--server-url URL` / `--server-url=URL` and `--compact`; for anything else, what is wrong. */
function parseArgs(args: readonly string[]): { serverUrl?: string; compact: boolean } | string {
  const parsed: { serverUrl?: string; compact: boolean } = { compact: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    if (arg === '--compact') parsed.compact = true;
    else if (arg === '--server-url') {
      if (!next) return '--server-url needs a URL';
      parsed.serverUrl = next;
      i += 1;
    } else if (arg.startsWith('--server-url=')) parsed.serverUrl = arg.slice('--server-url='.length);
    else return arg.startsWith('-') ? `unknown option "${arg}"` : `unexpected argument "${arg}"`;
  }
  return parsed;
}

/** `intrabot openapi`: prints the OpenAPI 3.1 document of the platform API, generated from the endpoint catalogue. */
export function createOpenApiCommand(deps: OpenApiCommandDeps): CliCommand {
  return {
    name: 'openapi',
    usage: USAGE,
    summary: 'Print the OpenAPI 3.1 document of the platform API (JSON).',
    async run(args) {
      const parsed = parseArgs(args);
      if (typeof parsed === 'string') {
        deps.stderr(`intrabot openapi: ${parsed}\nUsage: intrabot ${USAGE}\n`);
        return 2;
      }
      const doc = buildOpenApiDocument(parsed.serverUrl ? { serverUrl: parsed.serverUrl } : {});
      deps.stdout(`${JSON.stringify(doc, null, parsed.compact ? undefined : 2)}\n`);
      return 0;
    },
  };
}

export const command: CliCommand = createOpenApiCommand({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
