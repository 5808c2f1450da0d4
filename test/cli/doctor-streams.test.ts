import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runDoctorCommand } from '../../src/cli/commands/doctor';
import { captureIo } from './cli-io';

/**
 * Issue #15, item 2: `intrabot doctor` prints each check as it completes, so a slow platform shows
 * which check it waits on instead of a silent screen. A tiny local server plays the platform and holds
 * its answer to the token check until the test lets it go: the checks before it must already be on
 * screen, and the token check appears only after.
 */
describe('intrabot doctor streams its checks', () => {
  let tmp: string;
  let server: Server;
  let base: string;
  let held: ServerResponse | undefined;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'intrabot-doctor-streams-'));
    server = createServer((req, res) => {
      // the reachability probe carries no token: answered at once; the token check (bearer) is held
      if (req.headers.authorization) held = res;
      else res.writeHead(401, { 'content-type': 'application/json', date: new Date().toUTCString() }).end('{"message":"Unauthenticated."}');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(tmp, { recursive: true, force: true });
  });

  it('prints the store and reachability checks while the token check is still waiting, and the token check once it completes', async () => {
    const io = captureIo({
      INTRABOT_BASE_URL: base,
      INTRABOT_TOKEN: 'svc_doctor_streams_test',
      INTRABOT_SECRET_KEY: 'doctor-streams-test-key',
      INTRABOT_DATA_DIR: join(tmp, 'data'),
      INTRABOT_BOTS_DIR: resolve('test/cli/fixtures/no-bots'),
      INTRABOT_LOG_LEVEL: 'silent',
    });
    const done = runDoctorCommand([], io);

    await vi.waitFor(() => expect(held).toBeDefined(), { timeout: 20_000 });
    expect(io.out).toMatch(/^ok {4}store: sqlite/m);
    expect(io.out).toContain(`ok    default: reachable: ${base}`);
    expect(io.out).not.toContain('default: token');

    held!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { name: 'doctor', scopes: [], expires_at: null } }));
    expect(await done).toBe(0);
    expect(io.out).toContain('ok    default: token: "doctor", no expiry');
    expect(io.out.indexOf('default: reachable')).toBeLessThan(io.out.indexOf('default: token'));
  });
});
