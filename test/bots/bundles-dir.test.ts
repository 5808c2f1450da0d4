import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { firstWritableDir } from '../../src/bots/bot-bundler';

describe('where compiled bots are written', () => {
  let scratch: string | undefined;
  afterEach(() => scratch && rmSync(scratch, { recursive: true, force: true }));

  it('falls back to the next directory when the first cannot be made (here a file stands in its way; a read-only file system is refused the same way)', () => {
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

  it('does not take a private fallback another could have planted: open to others, or a symbolic link', () => {
    scratch = mkdtempSync(join(tmpdir(), 'intrabot-bundles-'));
    const open = join(scratch, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const link = join(scratch, 'link');
    symlinkSync(open, link);
    const mine = join(scratch, 'mine');
    expect(
      firstWritableDir([
        { dir: open, private: true },
        { dir: link, private: true },
        { dir: mine, private: true },
      ]),
    ).toBe(mine);
    expect(statSync(mine).mode & 0o777).toBe(0o700);
  });
});
