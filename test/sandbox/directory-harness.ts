import { AdjustableClock } from '../../src/clock';
import { buildSandboxApp } from '../../src/sandbox/app';
import { SandboxContext } from '../../src/sandbox/context';
import type { PlatformEvent } from '../../src/sandbox/events';
import type { SeedName } from '../../src/sandbox/module';
import { SANDBOX_MODULES } from '../../src/sandbox/modules';
import { directoryRefs, type DirectorySeedRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxDb } from '../../src/sandbox/state/sandbox-db';

/** 2026-11-22 09:00 in Berlin, a Sunday. */
export const START = Date.UTC(2026, 10, 22, 8);
export const TOKEN = 'svc_sandbox_token';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The whole sandbox (every module) on a frozen clock, seeded, with a rate limit high enough that a
 * test's many calls are not throttled, and every emitted event recorded.
 */
export function harness(seed: SeedName = 'demo', start = START) {
  const clock = new AdjustableClock({ start, frozen: true });
  const ctx = new SandboxContext(new SandboxDb(), clock);
  const sandbox = buildSandboxApp(ctx, SANDBOX_MODULES);
  sandbox.reset({ seed });
  ctx.updateSettings({ rate_limit_per_minute: 100_000 });
  const events: PlatformEvent[] = [];
  ctx.events.on((e) => events.push(e));
  const app = sandbox.app;
  const api = (method: Method, url: string, payload?: unknown, token = TOKEN) =>
    app.inject({ method, url: `/api/open/v1${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
  const control = (method: Method, url: string, payload?: unknown) =>
    app.inject({ method, url: `/_sandbox${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const tokenWith = async (scopes: string[], extra: Record<string, unknown> = {}): Promise<string> =>
    ((await control('POST', '/tokens', { name: `t-${scopes.join('-')}`, scopes, ...extra })).json() as { token: string }).token;
  const refs = (directoryRefs(ctx) ?? undefined) as DirectorySeedRefs;
  return { app, ctx, clock, api, control, tokenWith, events, refs, close: () => app.close() };
}

export type Harness = ReturnType<typeof harness>;

/** A multipart body with one file field and optional text fields, as a client would send it. */
export async function multipart(fields: Record<string, string>, file?: { field: string; name: string; type: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append(file.field, new Blob([file.bytes], { type: file.type }), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') as string } };
}

/** A minimal PNG header (signature + IHDR) claiming the given size. */
export function pngBytes(width: number, height: number): Uint8Array {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}
