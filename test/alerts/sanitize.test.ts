import { describe, expect, it } from 'vitest';
import { parseSlack } from '../../src/alerts/adapters/slack';
import { sanitizeAlert, sanitizeText, sanitizeUrl } from '../../src/alerts/sanitize';
import { fixture } from './load-fixture';

const ZWSP = '\u200b';

describe('sanitizeText', () => {
  it('breaks @mentions with a zero-width space after the @', () => {
    expect(sanitizeText('cc @db-oncall and @here')).toBe(`cc @${ZWSP}db-oncall and @${ZWSP}here`);
    expect(sanitizeText('cc @db-oncall')).not.toMatch(/@[\w-]/);
  });

  it('breaks full-width ＠ mentions too', () => {
    expect(sanitizeText('＠here')).toBe(`＠${ZWSP}here`);
  });

  it('neutralises markup and Slack control sequences', () => {
    expect(sanitizeText('<b>x</b> <!channel> <@U1>')).toBe(`<${ZWSP}b>x<${ZWSP}/b> <${ZWSP}!channel> <${ZWSP}@${ZWSP}U1>`);
    expect(sanitizeText('latency <= 90 and a < b')).toBe('latency <= 90 and a < b');
  });

  it('strips control and bidi-override characters but keeps newlines and tabs', () => {
    expect(sanitizeText('a\u0000b\u0007c\u001b[31md\u202eevil\u2066\r\nnext\rlast\tcol')).toBe('abc[31mdevil\nnext\nlast\tcol');
  });

  it('is idempotent', () => {
    const once = sanitizeText('@here <!here> \u0000 @@x');
    expect(sanitizeText(once)).toBe(once);
  });
});

describe('sanitizeAlert', () => {
  it("leaves no live mention in the Zabbix fixture's title, description or labels", () => {
    const alert = sanitizeAlert(parseSlack(fixture('slack-compatible-text.json'))[0]!.alerts[0]!);
    expect(alert.title).toContain(`@${ZWSP}here`);
    for (const text of [alert.title, alert.summary, alert.description ?? '', ...Object.values(alert.labels)]) {
      expect(text).not.toMatch(/@[^\u200b]/);
    }
    expect(alert.description).toContain(`@${ZWSP}U024BE7LH @${ZWSP}db-oncall`);
  });

  it('keeps URLs usable while removing control characters from them', () => {
    expect(sanitizeUrl('https://x.example/a?b=1\u0000&c=@d \n')).toBe('https://x.example/a?b=1&c=@d');
  });
});
