import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSecretKey, openSecret, sealSecret } from '../../src/store/secret-box';

const salt = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

describe('deriveSecretKey', () => {
  it('takes 64 hex characters as the key itself', () => {
    const hex = 'ab'.repeat(32);
    expect(deriveSecretKey(hex, salt).toString('hex')).toBe(hex);
  });

  it('takes base64 and base64url of 32 bytes as the key itself', () => {
    const key = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i));
    expect(deriveSecretKey(key.toString('base64'), salt).equals(key)).toBe(true);
    expect(deriveSecretKey(key.toString('base64url'), salt).equals(key)).toBe(true);
  });

  it('derives a passphrase with scrypt and the store salt, differently per salt', () => {
    const a = deriveSecretKey('correct horse battery staple', salt);
    expect(a).toHaveLength(32);
    expect(a.equals(deriveSecretKey('correct horse battery staple', salt))).toBe(true);
    expect(a.equals(deriveSecretKey('correct horse battery staple', randomBytes(16)))).toBe(false);
  });
});

describe('sealSecret / openSecret', () => {
  const key = randomBytes(32);

  it('round-trips and uses a fresh IV each time', () => {
    const one = sealSecret(key, 'n', 'value');
    expect(one).not.toBe(sealSecret(key, 'n', 'value'));
    expect(openSecret(key, 'n', one)).toBe('value');
  });

  it('refuses a ciphertext moved under another name', () => {
    expect(() => openSecret(key, 'other', sealSecret(key, 'n', 'value'))).toThrow(expect.objectContaining({ code: 'secret_undecryptable' }));
  });

  it('refuses a tampered or malformed value', () => {
    const [v, iv, tag, body] = sealSecret(key, 'n', 'value').split('.');
    const flipped = Buffer.from(body!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => openSecret(key, 'n', [v, iv, tag, flipped.toString('base64')].join('.'))).toThrow(expect.objectContaining({ code: 'secret_undecryptable' }));
    expect(() => openSecret(key, 'n', 'plaintext')).toThrow(expect.objectContaining({ code: 'secret_undecryptable' }));
  });
});
