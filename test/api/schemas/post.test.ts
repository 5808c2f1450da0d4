import { describe, expect, it } from 'vitest';
import { PostCreateSchema } from '../../../src/api/schemas';
import { issues, failingField } from './issues';

describe('post bodies (spec: Posts, create body)', () => {
  it('refuses 11 media_ids, naming media_ids', () => {
    const ids = Array.from({ length: 11 }, (_, i) => i + 1);
    expect(failingField(PostCreateSchema, { body: 'hi', media_ids: ids })).toBe('body.media_ids');
    expect(issues(PostCreateSchema, { body: 'hi', media_ids: ids })[0]?.message).toMatch(/media_ids.*10/);
  });

  it('accepts 10 media_ids and a bot_user_id', () => {
    expect(issues(PostCreateSchema, { body: 'hi', media_ids: Array.from({ length: 10 }, (_, i) => i + 1), bot_user_id: 4 })).toEqual([]);
  });

  it('requires a non-blank body, naming body', () => {
    expect(issues(PostCreateSchema, { media_ids: [1] })).toEqual([{ path: 'body', message: 'body is required' }]);
    expect(issues(PostCreateSchema, { body: '   ' })[0]?.path).toBe('body');
  });

  it('refuses an unknown field, naming it', () => {
    expect(issues(PostCreateSchema, { body: 'hi', bodyy: 'x' })[0]?.message).toContain('bodyy');
  });
});
