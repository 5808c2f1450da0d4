import { describe, expect, it, vi } from 'vitest';
import { REDIS_SKIP_REASON, redisTestUrl } from '../helpers/redis';

describe('redis test helper', () => {
  it('fails instead of skipping in CI when INTRABOT_REDIS_URL is unset', () => {
    expect(() => redisTestUrl({ CI: 'true' })).toThrow(/INTRABOT_REDIS_URL/);
  });

  it('skips outside CI with the reason printed', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(redisTestUrl({})).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(REDIS_SKIP_REASON);
    expect(REDIS_SKIP_REASON).toContain('INTRABOT_REDIS_URL=redis://127.0.0.1:6379');
    warn.mockRestore();
  });

  it('gives the configured URL', () => {
    expect(redisTestUrl({ INTRABOT_REDIS_URL: 'redis://127.0.0.1:6379', CI: 'true' })).toBe('redis://127.0.0.1:6379');
  });
});
