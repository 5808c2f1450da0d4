import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnreadableEnvRefError, resolveEnvRefs } from '../../src/bots/env-refs';
import { parseManifest } from '../../src/bots/manifest-loader';
import { ManifestError } from '../../src/bots/manifest-error';

const secretFile = (content: string): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'intrabot-env-file-')), 'value');
  writeFileSync(path, content);
  return path;
};

/** Issue #24, item 3: `${env:X}` takes `X_FILE`, as Docker and Kubernetes mount secrets. */
describe('${env:NAME} with NAME_FILE', () => {
  it('reads the file NAME_FILE names when NAME is unset, without its trailing newline', () => {
    expect(resolveEnvRefs('Bearer ${env:ALERT_TOKEN}', { ALERT_TOKEN_FILE: secretFile('from-a-file\n') })).toBe('Bearer from-a-file');
  });

  it('refuses NAME and NAME_FILE both set, naming both', () => {
    const env = { ALERT_TOKEN: 'direct', ALERT_TOKEN_FILE: secretFile('from-a-file') };
    expect(() => resolveEnvRefs('${env:ALERT_TOKEN}', env)).toThrow(UnreadableEnvRefError);
    expect(() => resolveEnvRefs('${env:ALERT_TOKEN}', env)).toThrow('ALERT_TOKEN and ALERT_TOKEN_FILE are both set');
  });

  it('refuses a file it cannot read, naming the variable and the path', () => {
    const env = { ALERT_TOKEN_FILE: '/nonexistent/intrabot/alert-token' };
    expect(() => resolveEnvRefs('${env:ALERT_TOKEN}', env)).toThrow('ALERT_TOKEN_FILE=/nonexistent/intrabot/alert-token: cannot read the file (ENOENT)');
  });

  it('names the manifest field and line of a reference whose file is unreadable', () => {
    const source = 'name: pager\ndisplay_name: Pager\nalerts:\n  - input: am\n    format: alertmanager\n    auth: { bearer: ${env:PAGER_TOKEN} }\n';
    const parse = () => parseManifest(source, 'bots/pager/bot.yaml', { PAGER_TOKEN_FILE: '/nonexistent/pager-token' });
    expect(parse).toThrow(ManifestError);
    expect(parse).toThrow(/bot\.yaml:6.*PAGER_TOKEN_FILE=\/nonexistent\/pager-token: cannot read the file/);
  });

  it('gives a bot manifest the file content for the reference', () => {
    const source = 'name: pager\ndisplay_name: Pager\nalerts:\n  - input: am\n    format: alertmanager\n    auth: { bearer: ${env:PAGER_TOKEN} }\n';
    const manifest = parseManifest(source, 'bots/pager/bot.yaml', { PAGER_TOKEN_FILE: secretFile('pager-token-from-file-0123\n') });
    expect(manifest.alerts[0]?.auth).toMatchObject({ bearer: 'pager-token-from-file-0123' });
  });
});
