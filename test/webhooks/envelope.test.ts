import { describe, expect, it } from 'vitest';
import { EnvelopeSchema } from '../../src/webhooks/envelope';

const envelope = {
  id: '8f14e45f-ceea-467f-a3f1-1b1c2d3e4f50',
  event: 'service.post.created',
  version: 'v1',
  timestamp: 1_700_000_000,
  customer: 'acme',
  payload: { id: 42 },
};

describe('EnvelopeSchema (spec: Events, Envelope)', () => {
  it('parses a delivery and keeps unknown fields', () => {
    const parsed = EnvelopeSchema.parse({ ...envelope, attempt: 2 });
    expect(parsed).toMatchObject(envelope);
    expect(parsed).toHaveProperty('attempt', 2);
  });

  it.each([
    ['id', { id: 'not-a-uuid' }],
    ['version', { version: 'v2' }],
    ['timestamp', { timestamp: 1_700_000_000.5 }],
    ['timestamp', { timestamp: '1700000000' }],
    ['customer', { customer: undefined }],
    ['payload', { payload: [1, 2] }],
  ])('rejects a bad %s', (field, change) => {
    const result = EnvelopeSchema.safeParse({ ...envelope, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });
});
