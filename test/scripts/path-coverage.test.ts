import { describe, expect, it } from 'vitest';
import { measurePaths } from '../../scripts/path-coverage';

// issue #25: the path-measuring script, run in-process on the event path (one warm-up, one window, one
// trigger watched for the closures' callers). Membership only, no numbers: vitest's module transform adds
// a getter per export, which V8 counts as functions (here ~93 files and ~445 functions against ~85 and
// ~351 under tsx, which the script's figures use).
describe('path-coverage', () => {
  it('counts the files of src/ one /ping runs through, from the receiver and its steps to the outbox sender, and none of the sandbox or testing; finds the closures it hands across files', async () => {
    const [event] = await measurePaths({ paths: ['event'], samplingRuns: 0, callerRuns: 1 });
    expect(event?.outcome).toMatch(/^comment \d+ "pong" on post \d+$/);
    const files = event!.files.map((f) => f.file);
    expect(files).toEqual(expect.arrayContaining(['runtime/ingest/inbox-ingest.ts', 'webhooks/receiver.ts', 'outbox/sender.ts', 'api/client.ts']));
    expect(files.filter((f) => f.startsWith('sandbox/') || f.startsWith('testing/'))).toEqual([]);
    expect(event!.fileCount).toBe(files.length);
    expect(event!.functionCount).toBe(event!.files.reduce((n, f) => n + f.functions.length, 0));
    expect(event!.files.every((f) => f.functions.length > 0)).toBe(true);

    // function-valued dependencies: at least one closure handed out of its file, each at a file:line of a
    // file that ran (so the measurement cannot silently report none), and one seen called from another file
    const { closures } = event!;
    expect(closures.escaping.length).toBeGreaterThan(0);
    for (const closure of closures.escaping) {
      expect(`${closure.file}:${closure.line}`).toMatch(/^[\w./-]+\.ts:[1-9]\d*$/);
      expect(files).toContain(closure.file);
      expect(closure.escape?.to).toBeTruthy();
    }
    expect(closures.files).toEqual([...new Set(closures.escaping.map((c) => c.file))].sort());
    expect(closures.calledFromOtherFile).toBeGreaterThan(0);
    expect(closures.calledFromOtherFile).toBeLessThanOrEqual(closures.escaping.length);
    // a real runtime under V8 coverage and the inspector, on two cores that the rest of the suite shares
  }, 150_000);
});
