import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseAlerts } from '../../src/alerts/adapters';
import { verifySignature } from '../../src/alerts/input-signature';

// shapes from GitHub's workflow_run, GitLab's pipeline and Jenkins' Notification plugin payloads (their docs)
const run = (action: string, conclusion: string | null) => ({
  action,
  workflow_run: {
    name: 'CI',
    head_branch: 'main',
    workflow_id: 4711,
    conclusion,
    display_title: 'Fix login',
    html_url: 'https://github.com/acme/intranet/actions/runs/9',
    event: 'push',
  },
  repository: { full_name: 'acme/intranet', html_url: 'https://github.com/acme/intranet' },
  sender: { login: 'mona' },
});
const pipeline = (status: string) => ({
  object_kind: 'pipeline',
  object_attributes: { id: 31, ref: 'main', status, source: 'push' },
  project: { id: 7, path_with_namespace: 'acme/intranet', web_url: 'https://gitlab.example/acme/intranet' },
  commit: { title: 'Fix login' },
  user: { username: 'jo' },
});
const build = (phase: string, status: string) => ({
  name: 'intranet-deploy',
  build: { full_url: 'https://jenkins.example/job/intranet-deploy/18/', number: 18, phase, status },
});

describe('CI sources: only a finished run is news, and a success resolves the failure before it', () => {
  it('github: a completed failed workflow_run fires, a later success on the same workflow and branch resolves it, other actions post nothing', () => {
    expect(parseAlerts('github', run('in_progress', null))).toEqual([]);
    const failed = parseAlerts('github', run('completed', 'failure'))[0]!.alerts[0]!;
    const fixed = parseAlerts('github', run('completed', 'success'))[0]!.alerts[0]!;
    expect(failed).toMatchObject({ source: 'github', status: 'firing', title: 'acme/intranet: CI on main' });
    expect(fixed).toMatchObject({ status: 'resolved', fingerprint: failed.fingerprint });
  });

  it('gitlab: a failed pipeline fires, a successful one of the same ref resolves it, a running one posts nothing', () => {
    expect(parseAlerts('gitlab', pipeline('running'))).toEqual([]);
    const failed = parseAlerts('gitlab', pipeline('failed'))[0]!.alerts[0]!;
    expect(failed).toMatchObject({ status: 'firing', title: 'acme/intranet: pipeline on main', fingerprint: 'gitlab-7-main' });
    expect(parseAlerts('gitlab', pipeline('success'))[0]!.alerts[0]).toMatchObject({ status: 'resolved', fingerprint: 'gitlab-7-main' });
  });

  it('jenkins: only the FINALIZED phase is posted, so a build is reported once', () => {
    expect(parseAlerts('jenkins', build('COMPLETED', 'FAILURE'))).toEqual([]);
    expect(parseAlerts('jenkins', build('FINALIZED', 'FAILURE'))[0]!.alerts[0]).toMatchObject({ status: 'firing', summary: 'build #18 FAILURE' });
    expect(parseAlerts('jenkins', build('FINALIZED', 'SUCCESS'))[0]!.alerts[0]).toMatchObject({ status: 'resolved', fingerprint: 'jenkins-intranet-deploy' });
  });
});

describe('CI senders checked by their signatures', () => {
  const body = Buffer.from(JSON.stringify(run('completed', 'failure')));
  const now = Date.parse('2026-08-20T09:30:00Z');

  it('github: X-Hub-Signature-256 sha256=<hmac> verifies; a forged or missing one does not', () => {
    const good = `sha256=${createHmac('sha256', 'gh-secret').update(body).digest('hex')}`;
    expect(verifySignature('github', { secret: 'gh-secret' }, body, { 'x-hub-signature-256': good }, now)).toBe('ok');
    expect(verifySignature('github', { secret: 'other' }, body, { 'x-hub-signature-256': good }, now)).toBe('mismatch');
    expect(verifySignature('github', { secret: 'gh-secret' }, body, {}, now)).toBe('missing');
  });

  it('gitlab: X-Gitlab-Token must equal the secret; a Standard Webhooks signature verifies within five minutes, not after', () => {
    expect(verifySignature('gitlab', { secret: 'gl-token' }, body, { 'x-gitlab-token': 'gl-token' }, now)).toBe('ok');
    expect(verifySignature('gitlab', { secret: 'gl-token' }, body, { 'x-gitlab-token': 'guess' }, now)).toBe('mismatch');
    const secret = `whsec_${Buffer.from('standard-webhooks-key').toString('base64')}`;
    const ts = String(now / 1000);
    const sig = createHmac('sha256', Buffer.from('standard-webhooks-key')).update(`msg_1.${ts}.`).update(body).digest('base64');
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': ts, 'webhook-signature': `v1,AAAA v1,${sig}` };
    expect(verifySignature('gitlab', { secret }, body, headers, now)).toBe('ok');
    expect(verifySignature('gitlab', { secret }, body, headers, now + 6 * 60_000)).toBe('stale');
  });
});
