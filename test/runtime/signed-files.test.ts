import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { runtimePartsOf } from '../../src/runtime/runtime-parts';
import { FILE_URL_TTL_MS, SignedFiles } from '../../src/runtime/sending/signed-files';
import type { Store } from '../../src/store';
import { startPair, type Pair } from '../../src/testing';
import { tempStore } from '../helpers/temp-store';

// a 1x1 PNG
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);

describe('signed file URLs', () => {
  let store: Store;
  const clock = new AdjustableClock({ start: Date.UTC(2026, 10, 22, 9), frozen: true });
  beforeAll(async () => {
    store = await tempStore(clock);
  });
  afterAll(async () => store.close());

  it('serves a file at its signed URL until it expires', async () => {
    const files = new SignedFiles(store, clock, () => 'http://bots.example');
    const url = await files.urlFor({ data: PNG, filename: 'dot.png' });
    expect(url).toMatch(/^http:\/\/bots\.example\/files\/[^/]+\/dot\.png$/);
    const token = url.split('/')[4]!;
    expect((await files.read(token))?.data.equals(PNG)).toBe(true);
    clock.advance(FILE_URL_TTL_MS + 1);
    expect(await files.read(token)).toBeUndefined();
  });

  it('gives a file whose name is a dot segment or a path a URL that still reaches it', async () => {
    const files = new SignedFiles(store, clock, () => 'http://bots.example');
    for (const [filename, shown] of [
      ['..', 'file'],
      ['.', 'file'],
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\x.png', 'x.png'],
      ['a\nb.png', 'ab.png'],
    ] as const) {
      const url = new URL(await files.urlFor({ data: PNG, filename }));
      const [, route, token, name] = url.pathname.split('/');
      expect([route, name], filename).toEqual(['files', shown]);
      expect((await files.read(token!))?.data.equals(PNG), filename).toBe(true);
    }
  });

  it('refuses a token with parts added after the signature', async () => {
    const files = new SignedFiles(store, clock, () => 'http://bots.example');
    const token = (await files.urlFor({ data: PNG, filename: 'dot.png' })).split('/')[4]!;
    expect(await files.read(`${token}.extra`)).toBeUndefined();
  });

  it('refuses a token whose signature was changed', async () => {
    const files = new SignedFiles(store, clock, () => 'http://bots.example');
    const token = (await files.urlFor({ data: PNG, filename: 'dot.png' })).split('/')[4]!;
    const [id, expires, signature] = token.split('.');
    const forged = `${id}.${(parseInt(expires!, 36) + 3_600).toString(36)}.${signature}`;
    expect(await files.read(forged)).toBeUndefined();
    expect(await files.read(`${id}.${expires}.${'0'.repeat(32)}`)).toBeUndefined();
  });
});

describe('media for incoming webhooks', () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await startPair({ bots: ['alerts'] });
  });
  afterAll(async () => pair?.close());

  it('sends a local file and raw bytes to a chat through signed URLs the platform downloads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intrabot-media-'));
    writeFileSync(join(dir, 'chart.png'), PNG);
    const { table, inbox } = runtimePartsOf(pair.runtime);
    const ctx = inbox.runner.context(table.get('sandbox', 'alerts')!, new AbortController().signal);
    await ctx.chat('oncall', {
      text: 'latency chart',
      media: [
        { path: join(dir, 'chart.png'), type: 'image' },
        { data: PNG, filename: 'dot.png', type: 'image' },
      ],
    });
    const messages = await pair.platform.waitFor(
      () => pair.platform.messages({ kind: 'chat' }),
      (m) => m.some((x) => x.text === 'latency chart'),
    );
    const sent = messages.find((x) => x.text === 'latency chart') as { media?: unknown[] };
    expect(sent.media).toHaveLength(2);
  });
});
