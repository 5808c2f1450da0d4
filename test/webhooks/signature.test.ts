import { describe, expect, it } from 'vitest';
import { sign, verify } from '../../src/webhooks/signature';

// Fixed vectors, computed once outside this code with:
//   printf '%s' "1700000000.$BODY" | openssl dgst -sha256 -hmac whsec_test_secret
const SECRET = 'whsec_test_secret';
const TS = '1700000000';
const BODY =
  '{"id":"8f14e45f-ceea-467f-a3f1-1b1c2d3e4f50","event":"service.post.created","version":"v1","timestamp":1700000000,"customer":"acme","payload":{"id":42,"body":"Hello"}}';
const BODY_SIG = 'd17c7e798d66d792ad02d5e0b61f8ab770032360815e4bc22b0d84c404a46071';
/** BODY with `"id":42` changed to `"id":43` in the payload (one byte). */
const BODY_ONE_BYTE = BODY.replace('"id":42', '"id":43');
const BODY_ONE_BYTE_SIG = '91bf3931cd4f3babfa97d26cfd583fd546c771866ca66b301d08fe282aef3a6e';
/** The same body signed with the header written as `01700000000`. */
const LEADING_ZERO_SIG = '4c3d2936080cc8dc7c63df8d30bba5f70c23e28ac54c1ff4ffc70f4e77755fce';

const NOW_MS = 1_700_000_000_000;

function check(overrides: Partial<Parameters<typeof verify>[0]> = {}, nowMs = NOW_MS) {
  return verify({ secret: SECRET, signature: BODY_SIG, timestamp: TS, rawBody: BODY, ...overrides }, nowMs);
}

describe('sign (spec: Events, Outgoing webhooks)', () => {
  it('is hex HMAC-SHA256 over "<timestamp>.<raw body>" keyed with the secret', () => {
    expect(sign(SECRET, 1_700_000_000, BODY)).toBe(BODY_SIG);
    expect(sign(SECRET, TS, Buffer.from(BODY))).toBe(BODY_SIG);
    expect(sign(SECRET, TS, BODY_ONE_BYTE)).toBe(BODY_ONE_BYTE_SIG);
  });
});

describe('verify', () => {
  it('accepts a delivery whose signature matches its raw bytes', () => {
    expect(check()).toEqual({ ok: true, timestamp: 1_700_000_000 });
    expect(check({ rawBody: Buffer.from(BODY) })).toEqual({ ok: true, timestamp: 1_700_000_000 });
  });

  it('rejects a body with one byte changed', () => {
    expect(check({ rawBody: BODY_ONE_BYTE })).toEqual({ ok: false, reason: 'mismatch' });
    // and the changed body verifies under its own signature, so the check really reads the bytes
    expect(check({ rawBody: BODY_ONE_BYTE, signature: BODY_ONE_BYTE_SIG }).ok).toBe(true);
  });

  it('rejects the same JSON re-serialized with other whitespace or key order', () => {
    const pretty = JSON.stringify(JSON.parse(BODY), null, 2);
    const { id, ...rest } = JSON.parse(BODY) as Record<string, unknown>;
    const reordered = JSON.stringify({ ...rest, id });
    expect(check({ rawBody: pretty })).toEqual({ ok: false, reason: 'mismatch' });
    expect(check({ rawBody: reordered })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects a signature under another secret', () => {
    expect(check({ secret: 'whsec_other' })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('rejects signatures of the wrong length, including one extra hex digit', () => {
    expect(check({ signature: BODY_SIG.slice(0, -1) })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ signature: BODY_SIG.slice(0, -2) })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ signature: `${BODY_SIG}0` })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ signature: `${BODY_SIG}00` })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('rejects a signature that is not hex', () => {
    expect(check({ signature: `sha256=${BODY_SIG}` })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('accepts upper-case hex of the same bytes', () => {
    expect(check({ signature: BODY_SIG.toUpperCase() }).ok).toBe(true);
  });

  it('rejects a Timestamp older than 300 s and one more than 300 s ahead (spec: Signature replay window)', () => {
    expect(check({}, NOW_MS + 301_000)).toEqual({ ok: false, reason: 'stale' });
    expect(check({}, NOW_MS + 300_001)).toEqual({ ok: false, reason: 'stale' });
    expect(check({}, NOW_MS - 301_000)).toEqual({ ok: false, reason: 'future' });
    expect(check({}, NOW_MS - 300_001)).toEqual({ ok: false, reason: 'future' });
  });

  it('accepts a Timestamp exactly 300 s old or 300 s ahead', () => {
    expect(check({}, NOW_MS + 300_000).ok).toBe(true);
    expect(check({}, NOW_MS - 300_000).ok).toBe(true);
  });

  it('checks the window before the signature, so a stale delivery is reported as stale', () => {
    expect(check({ rawBody: BODY_ONE_BYTE }, NOW_MS + 400_000)).toEqual({ ok: false, reason: 'stale' });
  });

  it('rejects a non-numeric Timestamp', () => {
    for (const timestamp of ['abc', '1.7e9', '1700000000.0', '-1700000000', ' 1700000000', '0x6553f100']) {
      expect(check({ timestamp })).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('signs over the Timestamp header text as sent', () => {
    expect(check({ timestamp: '01700000000', signature: LEADING_ZERO_SIG }).ok).toBe(true);
    expect(check({ timestamp: '01700000000' })).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('reports missing headers', () => {
    expect(check({ signature: undefined })).toEqual({ ok: false, reason: 'missing' });
    expect(check({ timestamp: undefined })).toEqual({ ok: false, reason: 'missing' });
    expect(check({ signature: '', timestamp: '' })).toEqual({ ok: false, reason: 'missing' });
  });
});
