import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstWritableDir } from '../../src/bots/bot-bundler';

describe('where compiled bots are written', () => {
  let scratch: string | undefined;
  afterEach(() => scratch && rmSync(scratch, { recursive: true, force: true }));

  it('falls back to the next directory when the first cannot be created (a read-only installation)', () => {
    scratch = mkdtempSync(join(tmpdir(), 'intrabot-bundles-'));
    // a file where a directory should be: mkdir fails even for root, as on a read-only root file system
    writeFileSync(join(scratch, 'install'), '');
    const fallback = join(scratch, 'tmp', 'bots');
    expect(firstWritableDir([join(scratch, 'install', '.build', 'bots'), fallback])).toBe(fallback);
    expect(existsSync(fallback)).toBe(true);
  });

  it('keeps the first directory when it is writable, and answers undefined when none is', () => {
    scratch = mkdtempSync(join(tmpdir(), 'intrabot-bundles-'));
    writeFileSync(join(scratch, 'file'), '');
    expect(firstWritableDir([join(scratch, 'a'), join(scratch, 'b')])).toBe(join(scratch, 'a'));
    expect(firstWritableDir([join(scratch, 'file', 'x')])).toBeUndefined();
  });
});
