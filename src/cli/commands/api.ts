import { readFile } from 'node:fs/promises';
import type { Dispatcher } from 'undici';
import { ApiClient } from '../../api/client';
import { redactSecrets } from '../../api/errors';
import { createSystemClock, type Clock } from '../../clock';
import { ConfigError, InvalidInputError, isIntrabotError } from '../../errors';
import type { CliCommand } from '../command';
import { rateNoticePrinter } from '../rate-notices';
import { readFlags } from '../read-flags';

/** What `intrabot api` reads and writes; the CLI passes the process, tests their own. */
export interface ApiCommandDeps {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  clock?: Clock;
  dispatcher?: Dispatcher;
}

const USAGE = 'api <METHOD> <path> [--data JSON|@file] [--paginate] [--base-url URL] [--token T]';
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** The seeded token of the embedded sandbox (DESIGN.md: Sandbox). */
const SANDBOX_TOKEN = 'svc_sandbox_token';

interface ApiArgs {
  method: string;
  path: string;
  data: string | undefined;
  paginate: boolean;
  baseUrl: string | undefined;
  token: string | undefined;
}

/** The arguments, or what is wrong with them (naming the flag or value). */
function readArgs(args: string[]): ApiArgs | string {
  const parsed = readFlags(args, {
    data: { type: 'string', short: 'd' },
    paginate: { type: 'boolean', default: false },
    'base-url': { type: 'string' },
    token: { type: 'string' },
  });
  if (typeof parsed === 'string') return parsed;
  const { values, positionals } = parsed;
  const [method, path, ...extra] = positionals;
  if (!method || !path) return 'give a method and a path';
  if (!METHODS.has(method.toUpperCase())) return `unknown method "${method}"; one of: ${[...METHODS].join(', ')}`;
  if (extra.length > 0) return `unexpected argument "${extra[0]}"`;
  return { method: method.toUpperCase(), path, data: values.data, paginate: values.paginate ?? false, baseUrl: values['base-url'], token: values.token };
}

/**
 * Flags first, then the environment; with neither base URL nor token anywhere, the local sandbox
 * and its seeded token.
 */
export function resolveTarget(args: Pick<ApiArgs, 'baseUrl' | 'token'>, env: ApiCommandDeps['env']): { baseUrl: string; token: string } {
  const baseUrl = args.baseUrl ?? env.INTRABOT_BASE_URL;
  const token = args.token ?? env.INTRABOT_TOKEN;
  if (baseUrl === undefined && token === undefined) {
    return { baseUrl: `http://127.0.0.1:${env.INTRABOT_SANDBOX_PORT || 4010}`, token: SANDBOX_TOKEN };
  }
  if (baseUrl === undefined) throw new ConfigError('INTRABOT_BASE_URL', 'INTRABOT_BASE_URL (or --base-url) is required with a token');
  if (token === undefined) throw new ConfigError('INTRABOT_TOKEN', 'INTRABOT_TOKEN (or --token) is required with a base URL');
  return { baseUrl, token };
}

/** `--data '{"body":"hi"}'` or `--data @body.json`. */
async function readData(data: string | undefined): Promise<unknown> {
  if (data === undefined) return undefined;
  const text = data.startsWith('@') ? await readFile(data.slice(1), 'utf8') : data;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InvalidInputError('data', 'data: is not valid JSON');
  }
}

async function collect(items: AsyncIterable<unknown>): Promise<unknown[]> {
  const all: unknown[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function execute(parsed: ApiArgs, deps: ApiCommandDeps): Promise<unknown> {
  const target = resolveTarget(parsed, deps.env);
  const body = await readData(parsed.data);
  const client = new ApiClient({
    ...target,
    clock: deps.clock ?? createSystemClock(),
    dispatcher: deps.dispatcher,
    onRateNotice: rateNoticePrinter(deps, 'intrabot api'),
  });
  try {
    if (parsed.paginate) {
      if (parsed.method !== 'GET') throw new InvalidInputError('paginate', 'paginate: only GET lists can be paginated');
      return await collect(client.paginateRequest({ path: parsed.path }));
    }
    const answer = await client.request({ method: parsed.method, path: parsed.path, body });
    return answer.body;
  } finally {
    await client.close();
  }
}

/** `intrabot api`: calls any path of the platform API, like `gh api`, and prints the JSON answer. */
export function createApiCommand(deps: ApiCommandDeps): CliCommand {
  return {
    name: 'api',
    usage: USAGE,
    summary: 'Call the platform API (default: the local sandbox) and print the JSON answer.',
    async run(args) {
      const parsed = readArgs(args);
      if (typeof parsed === 'string') {
        deps.stderr(`intrabot api: ${redactSecrets(parsed)}\nUsage: intrabot ${USAGE}\n`);
        return 2;
      }
      try {
        const result = await execute(parsed, deps);
        deps.stdout(`${JSON.stringify(result ?? null, null, 2)}\n`);
        return 0;
      } catch (error) {
        deps.stderr(`${describeFailure(error)}\n`);
        return 1;
      }
    },
  };
}

function describeFailure(error: unknown): string {
  if (isIntrabotError(error)) return redactSecrets(JSON.stringify(error.toJSON(), null, 2));
  const message = error instanceof Error ? error.message : String(error);
  return `intrabot api: ${redactSecrets(message)}`;
}

export const command: CliCommand = createApiCommand({
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
