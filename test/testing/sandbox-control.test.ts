import { describe, expect, it } from 'vitest';
import { useHttpSandbox } from '../sandbox/http-harness';

describe('SandboxControl (testing helpers)', () => {
  const h = useHttpSandbox();

  it('reads back through the API after a sandbox reset, which forgets the harness token', async () => {
    const postId = (await h.platform.wallPosts(h.refs.company_wall_id))[0]!.id;
    const before = await h.platform.commentsOn(postId);
    await h.reset();
    expect(await h.platform.commentsOn(postId)).toEqual(before);
  });

  it("reads the seed's named ids over HTTP, parsed into their types", async () => {
    const refs = await h.platform.refs();
    expect(refs).toMatchObject({ company_wall_id: h.refs.company_wall_id, employee_ids: h.refs.employee_ids });
    expect(refs.chats.General).toEqual(expect.any(Number));
    expect(refs.achievements.custom_public_id).toEqual(expect.any(Number));
  });

  it('refuses to name ids after the empty seed, saying why', async () => {
    await h.reset('empty');
    await expect(h.platform.refs()).rejects.toThrow(/404.*seeded empty/);
  });
});
