import { describe, expect, it } from 'vitest';
import { achievementRefs } from '../../src/sandbox/seed/achievements';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { useHttpSandbox } from './http-harness';

describe('GET /_sandbox/refs', () => {
  const h = useHttpSandbox();

  it("serves the seed's named ids: the directory's, the chat rooms by name and the demo achievements", async () => {
    const res = await h.sandbox.app.inject({ method: 'GET', url: '/_sandbox/refs' });
    expect(res.statusCode).toBe(200);
    const chats = ((await h.control.send('GET', '/chats')) as { data: { id: number; name: string }[] }).data;
    expect(res.json()).toEqual({
      ...directoryRefs(h.sandbox.ctx),
      chats: Object.fromEntries(chats.map((c) => [c.name, c.id])),
      achievements: achievementRefs(h.sandbox.ctx),
    });
    expect(Object.keys(res.json<{ chats: object }>().chats)).toEqual(['General', 'Ops alerts']);
  });

  it('answers 404 after the empty seed, which names nothing, saying how to get ids', async () => {
    await h.reset('empty');
    const res = await h.sandbox.app.inject({ method: 'GET', url: '/_sandbox/refs' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('seeded empty') });
  });

  it('answers loopback callers only, like the rest of the control API', async () => {
    const res = await h.sandbox.app.inject({ method: 'GET', url: '/_sandbox/refs', remoteAddress: '10.1.2.3' });
    expect(res.statusCode).toBe(403);
  });
});
