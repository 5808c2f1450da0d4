// The one rule of the local control surfaces (admin, console, sandbox control): a Host that names this
// process, and no change from another page's Origin. Vectors for the pure functions.
import { describe, expect, it } from 'vitest';
import { checkRequestAddress, hostName, isLoopbackHost, isOwnHost, isOwnOrigin, type AddressVerdict } from '../src/request-address';

describe('isLoopbackHost', () => {
  it('takes 127.x.y.z, localhost and [::1], with or without a port, in any case', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:3000', '127.1.2.3:80', 'localhost', 'LOCALHOST:4010', '[::1]', '[::1]:3000']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('refuses other names, and names that only start or end like a loopback one', () => {
    for (const host of [
      'evil.example',
      'evil.example:3000',
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      '127.0.0.1@evil.example',
      '0.0.0.0',
      '[::2]:3000',
      '',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('hostName', () => {
  it('drops the port and keeps the brackets of an IPv6 address', () => {
    expect([hostName('Bots.Example.com:443'), hostName('[::1]:3000'), hostName('localhost')]).toEqual(['bots.example.com', '[::1]', 'localhost']);
  });
});

describe('isOwnHost', () => {
  it("takes the public address's name, whatever port the proxy forwards, and refuses a missing Host", () => {
    expect(isOwnHost('bots.example.com', 'https://bots.example.com/')).toBe(true);
    expect(isOwnHost('BOTS.example.com:8443', 'https://bots.example.com')).toBe(true);
    expect(isOwnHost('other.example.com', 'https://bots.example.com')).toBe(false);
    expect(isOwnHost(undefined)).toBe(false);
    expect(isOwnHost('bots.example.com', 'not a url')).toBe(false);
  });
});

describe('isOwnOrigin', () => {
  it('takes the origin the request was addressed to, a default port written or not', () => {
    expect(isOwnOrigin('http://127.0.0.1:3000', '127.0.0.1:3000')).toBe(true);
    expect(isOwnOrigin('http://localhost', 'localhost:80')).toBe(true);
    expect(isOwnOrigin('https://bots.example.com', 'bots.example.com:443')).toBe(true);
    expect(isOwnOrigin('https://bots.example.com', '127.0.0.1:3000', 'https://bots.example.com')).toBe(true);
  });

  it("refuses another site, another port of this machine, and the opaque 'null' origin", () => {
    expect(isOwnOrigin('http://evil.example', '127.0.0.1:3000')).toBe(false);
    expect(isOwnOrigin('http://127.0.0.1:8080', '127.0.0.1:3000')).toBe(false);
    expect(isOwnOrigin('null', '127.0.0.1:3000')).toBe(false);
    expect(isOwnOrigin('http://127.0.0.1:3000', undefined)).toBe(false);
  });
});

describe('checkRequestAddress', () => {
  const own = { host: '127.0.0.1:3000' };
  const messageOf = (verdict: AddressVerdict): string => (verdict.ok ? '(taken)' : verdict.message);

  it('refuses a foreign Host on reads and changes alike, naming the rule, the Host and what is taken', () => {
    for (const method of ['GET', 'POST']) {
      const verdict = checkRequestAddress(
        { method, host: 'evil.example:3000', origin: undefined },
        { surface: 'admin routes', publicUrl: 'https://bots.example.com' },
      );
      expect(verdict).toEqual({ ok: false, rule: 'foreign_host', message: expect.stringContaining('foreign Host "evil.example:3000"') });
      expect(messageOf(verdict)).toContain('127.0.0.1, localhost, [::1], bots.example.com reach admin routes');
    }
  });

  it('refuses a change with a foreign Origin, and takes a read with one (CORS keeps its answer from the page)', () => {
    expect(checkRequestAddress({ method: 'POST', ...own, origin: 'http://evil.example' })).toMatchObject({ ok: false, rule: 'foreign_origin' });
    expect(checkRequestAddress({ method: 'delete', ...own, origin: 'http://evil.example' })).toMatchObject({ ok: false, rule: 'foreign_origin' });
    expect(checkRequestAddress({ method: 'GET', ...own, origin: 'http://evil.example' })).toEqual({ ok: true });
  });

  it('takes a change with its own Origin or with none (curl, the CLI, tests)', () => {
    expect(checkRequestAddress({ method: 'POST', ...own, origin: 'http://127.0.0.1:3000' })).toEqual({ ok: true });
    expect(checkRequestAddress({ method: 'POST', ...own, origin: undefined })).toEqual({ ok: true });
  });

  it('clips a long header in the refusal', () => {
    const verdict = checkRequestAddress({ method: 'GET', host: `${'a'.repeat(500)}.example`, origin: undefined });
    expect(verdict.ok).toBe(false);
    expect(messageOf(verdict).length).toBeLessThan(300);
  });
});
