import { describe, expect, it } from 'vitest';
import { paint, progress, table } from '../../src/cli/output';
import { captureIo } from './cli-io';

describe('cli output', () => {
  it('colours only on a terminal, and never with NO_COLOR set', () => {
    expect(paint({ env: {}, isTTY: true }).green('ok')).toBe('\u001b[32mok\u001b[0m');
    expect(paint({ env: {}, isTTY: false }).green('ok')).toBe('ok');
    expect(paint({ env: { NO_COLOR: '1' }, isTTY: true }).red('no')).toBe('no');
    // no-color.org: an empty NO_COLOR does not turn colour off
    expect(paint({ env: { NO_COLOR: '' }, isTTY: true }).red('no')).toBe('\u001b[31mno\u001b[0m');
  });

  it('aligns table columns under the header and trims the line ends', () => {
    expect(
      table(
        ['ID', 'STATE'],
        [
          ['1', 'dead'],
          ['12345', 'ok'],
        ],
      ),
    ).toBe('ID     STATE\n1      dead\n12345  ok\n');
  });

  it('prints progress as plain lines when stdout is not a terminal', () => {
    const io = captureIo({});
    const p = progress(io, 'provisioning 2 tenants');
    p.update('tenant a');
    p.done('provisioned 2 tenants');
    expect(io.out).toBe('provisioning 2 tenants...\n  tenant a\nprovisioned 2 tenants\n');
  });

  it('redraws one line in place on a terminal and ends it with the final text', () => {
    const io = captureIo({});
    io.isTTY = true;
    const p = progress(io, 'syncing');
    p.update('page 2');
    p.done('synced');
    expect(io.out.startsWith('\r\u001b[2K')).toBe(true);
    expect(io.out).toContain('syncing: page 2');
    expect(io.out.endsWith('\r\u001b[2Ksynced\n')).toBe(true);
    expect(io.out.split('\n')).toHaveLength(2);
  });
});
