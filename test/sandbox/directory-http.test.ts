import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type IntrabotApi } from '../../src/api/create-api-client';
import { AdjustableClock } from '../../src/clock';
import { createSandbox, type Sandbox } from '../../src/sandbox/sandbox';
import { pngBytes } from './http-harness';

/** `createSandbox` itself, as `intrabot sandbox` and the testing helpers start it: on its own clock, default seed. */
describe('sandbox over real HTTP', () => {
  let sandbox: Sandbox | undefined;
  let api: IntrabotApi | undefined;
  afterEach(async () => {
    await api?.close();
    await sandbox?.close();
    api = undefined;
    sandbox = undefined;
  });

  async function start(): Promise<{ sandbox: Sandbox; api: IntrabotApi }> {
    sandbox = await createSandbox({ port: 0 });
    api = createApiClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, clock: new AdjustableClock(), retry: { attempts: 1 } });
    return { sandbox, api };
  }

  it('serves the directory on a random loopback port with createSandbox({ port: 0 })', async () => {
    const { sandbox, api } = await start();
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const departments = await api.groups.list({ type: 'department' });
    expect(departments.data.map((g) => g.name)).toEqual(['Engineering', 'Sales', 'People', 'Operations']);
    // without a token: the client always sends one, so raw HTTP
    const anonymous = await request(`${sandbox.baseUrl}/api/open/v1/groups`);
    await anonymous.body.dump();
    expect(anonymous.statusCode).toBe(401);
  });

  it('uploads media as multipart and serves it back at its absolute url (spec: Media)', async () => {
    const { sandbox, api } = await start();
    const media = await api.media.uploadFile({ type: 'image', data: pngBytes(3, 4), filename: 'dot.png' });
    expect(media).toMatchObject({ width: 3, height: 4 });
    expect(media.url.startsWith(sandbox.baseUrl)).toBe(true);
    const file = await request(media.url);
    expect(file.statusCode).toBe(200);
    expect(Buffer.from(await file.body.arrayBuffer()).equals(Buffer.from(pngBytes(3, 4)))).toBe(true);
  });
});
