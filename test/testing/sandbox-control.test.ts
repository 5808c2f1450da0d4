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
});
