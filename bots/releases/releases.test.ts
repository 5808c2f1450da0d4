import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { testBot } from 'intrabot/testing';
import { describe, expect, it } from 'vitest';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const edit = (name: string, change: (body: Record<string, any>) => void): string => {
  const body = JSON.parse(fixture(name)) as Record<string, any>;
  change(body);
  return JSON.stringify(body);
};
const SECRET = 'sandbox-alert-token';
const JSON_TYPE = { 'content-type': 'application/json' };
/** GitHub's X-Hub-Signature-256: sha256= and the hex HMAC-SHA256 of the body with the webhook's secret. */
const github = (body: string) => ({ ...JSON_TYPE, 'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` });
const gitlab = { ...JSON_TYPE, 'x-gitlab-token': SECRET };
const ENGINEERING = 3;

const releases = () => testBot(new URL('.', import.meta.url), { walls: { Engineering: ENGINEERING }, now: '2026-12-03T09:00:00Z' });

describe('releases: release notes', () => {
  it('posts a published GitHub release with its markdown notes rendered as plain text', async () => {
    const bot = await releases();
    const { sent } = await bot.alert('github-release', fixture('github-release-published.json'), { headers: JSON_TYPE });
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: ENGINEERING,
        text: [
          '📦 acme/intranet v2.4.0',
          '',
          "■ What's Changed",
          '',
          '■ Features',
          // the alert inputs break every @ (a zero-width space after it): release notes mention nobody
          '• Search across walls by @\u200bmona in https://github.com/acme/intranet/pull/311',
          '• Dark mode for the kiosk view (theme: dark) by @\u200boctocat in #318 (https://github.com/acme/intranet/pull/318)',
          '',
          '■ Fixes',
          '• Login works again behind the proxy',
          '  • cookies are sent with SameSite=None',
          '',
          'Upgrade with:',
          '    npm install @\u200bacme/intranet@\u200b2.4.0',
          '',
          'Full Changelog: https://github.com/acme/intranet/compare/v2.3.0...v2.4.0',
          '',
          'Release notes: https://github.com/acme/intranet/releases/tag/v2.4.0',
        ].join('\n'),
      },
    ]);
  });

  it('posts a release once, however often GitHub delivers it', async () => {
    const bot = await releases();
    await bot.alert('github-release', fixture('github-release-published.json'), { headers: JSON_TYPE });
    expect((await bot.alert('github-release', fixture('github-release-published.json'), { headers: JSON_TYPE })).sent).toEqual([]);
    // a year is remembered (options.dedupe_window), not the 7 days of an alert
    bot.clock.advance(300 * 86_400_000);
    expect((await bot.alert('github-release', fixture('github-release-published.json'), { headers: JSON_TYPE })).sent).toEqual([]);
  });

  it('posts nothing for a release that is only created, edited or deleted (GitHub action other than published)', async () => {
    const bot = await releases();
    for (const action of ['created', 'edited', 'deleted', 'prereleased']) {
      const body = edit('github-release-published.json', (b) => (b.action = action));
      expect(await bot.alert('github-release', body, { headers: JSON_TYPE })).toMatchObject({ accepted: 0, sent: [] });
    }
  });

  it('marks a pre-release', async () => {
    const bot = await releases();
    const body = edit('github-release-published.json', (b) => (b.release.prerelease = true));
    const { sent } = await bot.alert('github-release', body, { headers: JSON_TYPE });
    expect(sent[0]).toMatchObject({ text: expect.stringMatching(/^📦 acme\/intranet v2\.4\.0 \(pre-release\)\n/) });
  });

  it('posts a GitLab release once, on its create event only', async () => {
    const bot = await releases();
    const { sent } = await bot.alert('gitlab-release', fixture('gitlab-release-create.json'), { headers: JSON_TYPE });
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: ENGINEERING,
        text:
          '📦 acme/portal v1.1\n\n■ v1.1\n\n• New export to CSV\n• Fixed a crash (https://gitlab.example/acme/portal/-/issues/7) on start\n\n' +
          'See CHANGELOG.md.\n\nRelease notes: https://gitlab.example/acme/portal/-/releases/v1.1',
      },
    ]);
    expect((await bot.alert('gitlab-release', fixture('gitlab-release-create.json'), { headers: JSON_TYPE })).sent).toEqual([]);
    const update = edit('gitlab-release-create.json', (b) => (b.action = 'update'));
    expect((await bot.alert('gitlab-release', update, { headers: JSON_TYPE })).sent).toEqual([]);
  });
});

describe('releases: failed CI runs', () => {
  it('posts a failed GitHub workflow run, once', async () => {
    const bot = await releases();
    const body = fixture('github-workflow-run-failure.json');
    const { sent } = await bot.alert('github', body, { headers: github(body) });
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: ENGINEERING,
        text: '❌ acme/intranet: CI on main\nfailure: Fix login behind the proxy\nBy octocat (push)\nRun: https://github.com/acme/intranet/actions/runs/12120000042',
      },
    ]);
    expect((await bot.alert('github', body, { headers: github(body) })).sent).toEqual([]);
  });

  it('posts nothing for a run that has not completed', async () => {
    const bot = await releases();
    const body = edit('github-workflow-run-failure.json', (b) => {
      b.action = 'in_progress';
      b.workflow_run.conclusion = null;
    });
    expect(await bot.alert('github', body, { headers: github(body) })).toMatchObject({ accepted: 0, sent: [] });
  });

  it('answers the failure under its post when the next run of that workflow and branch succeeds', async () => {
    const bot = await releases();
    const failed = fixture('github-workflow-run-failure.json');
    const { posts } = await bot.alert('github', failed, { headers: github(failed) });
    // another failed run while the workflow still fails is the same failure: no second post
    const again = edit('github-workflow-run-failure.json', (b) => (b.workflow_run.id = 12120000043));
    expect((await bot.alert('github', again, { headers: github(again) })).sent).toEqual([]);
    const fixed = edit('github-workflow-run-failure.json', (b) => {
      b.workflow_run.id = 12120000044;
      b.workflow_run.conclusion = 'success';
    });
    const { sent } = await bot.alert('github', fixed, { headers: github(fixed) });
    expect(sent).toContainEqual({ kind: 'comment', postId: posts[0]!.postId, text: '✅ acme/intranet: CI on main passes again (after 6m 45s)' });
  });

  it('posts a failed GitLab pipeline, and nothing for one still running', async () => {
    const bot = await releases();
    const { sent } = await bot.alert('gitlab', fixture('gitlab-pipeline-failed.json'), { headers: gitlab });
    expect(sent).toEqual([
      {
        kind: 'post',
        wall: ENGINEERING,
        text: '❌ acme/portal: pipeline on main\nfailed: Add the CSV export\nBy jo (push)\nRun: https://gitlab.example/acme/portal/-/pipelines/31',
      },
    ]);
    const running = edit('gitlab-pipeline-failed.json', (b) => {
      b.object_attributes.id = 32;
      b.object_attributes.status = 'running';
    });
    expect(await bot.alert('gitlab', running, { headers: gitlab })).toMatchObject({ accepted: 0, sent: [] });
  });
});

describe('releases: who may send', () => {
  it("refuses a delivery whose signature does not match its body, as the runtime's input does", async () => {
    const bot = await releases();
    const body = fixture('github-release-published.json');
    const forged = { ...JSON_TYPE, 'x-hub-signature-256': `sha256=${createHmac('sha256', 'not-the-secret').update(body).digest('hex')}` };
    await expect(bot.alert('github-release', body, { headers: forged })).rejects.toThrow(/refuses this github signature: it does not match the body/);
    await expect(bot.alert('gitlab-release', fixture('gitlab-release-create.json'), { headers: { ...JSON_TYPE, 'x-gitlab-token': 'guess' } })).rejects.toThrow(
      /refuses this gitlab signature/,
    );
    expect((await bot.alert('github-release', body, { headers: github(body) })).sent).toHaveLength(1);
    expect(bot.sent).toHaveLength(1);
  });
});
