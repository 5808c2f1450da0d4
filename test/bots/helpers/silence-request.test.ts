import { describe, expect, it } from 'vitest';
import { formatSilenceMatcher, parseSilenceMatcher, parseSilenceRequest, silenceDurationMs } from '../../../src/bots/helpers';

describe('silence matchers', () => {
  it('reads the four operators Alertmanager knows, longest first', () => {
    expect(parseSilenceMatcher('alertname=DiskFull')).toEqual({ name: 'alertname', value: 'DiskFull', isRegex: false, isEqual: true });
    expect(parseSilenceMatcher('job!=api')).toEqual({ name: 'job', value: 'api', isRegex: false, isEqual: false });
    expect(parseSilenceMatcher('instance=~db-.*')).toEqual({ name: 'instance', value: 'db-.*', isRegex: true, isEqual: true });
    expect(parseSilenceMatcher('env!~staging|dev')).toEqual({ name: 'env', value: 'staging|dev', isRegex: true, isEqual: false });
  });

  it('keeps everything after the operator as the value, = signs and spaces included', () => {
    expect(parseSilenceMatcher('summary=a=b c')).toEqual({ name: 'summary', value: 'a=b c', isRegex: false, isEqual: true });
  });

  it('takes the value out of double or single quotes, as amtool writes it', () => {
    expect(parseSilenceMatcher('instance=~"db-.*"')?.value).toBe('db-.*');
    expect(parseSilenceMatcher("summary='disk full'")?.value).toBe('disk full');
    expect(parseSilenceMatcher('summary="say \\"hi\\""')?.value).toBe('say "hi"');
    expect(parseSilenceMatcher('summary="half')?.value).toBe('"half');
  });

  it('is not a matcher without an operator or with a name Prometheus would refuse', () => {
    expect(parseSilenceMatcher('2h')).toBeUndefined();
    expect(parseSilenceMatcher('1abc=x')).toBeUndefined();
    expect(parseSilenceMatcher('=x')).toBeUndefined();
  });

  it('writes a matcher back as Alertmanager shows it, the value quoted', () => {
    for (const word of ['alertname="DiskFull"', 'job!="api"', 'instance=~"db-.*"', 'env!~"dev"']) {
      const [, name, op, value] = /^(\w+)(=~|!~|!=|=)"(.*)"$/.exec(word)!;
      expect(formatSilenceMatcher(parseSilenceMatcher(`${name}${op}${value}`)!)).toBe(word);
    }
  });
});

describe('silence durations', () => {
  it('reads s, m, h, d and w, and their sums', () => {
    expect(silenceDurationMs('90s')).toBe(90_000);
    expect(silenceDurationMs('30m')).toBe(1_800_000);
    expect(silenceDurationMs('1h30m')).toBe(5_400_000);
    expect(silenceDurationMs('2d')).toBe(172_800_000);
    expect(silenceDurationMs('1w')).toBe(604_800_000);
  });

  it('is not a duration without a unit or with another word', () => {
    for (const text of ['2', 'h', '2 hours', '1.5h', '-1h', '']) expect(silenceDurationMs(text)).toBeUndefined();
  });
});

describe('/silence arguments', () => {
  it('reads matchers, then the duration, then the rest as the comment', () => {
    expect(parseSilenceRequest(['alertname=DiskFull', 'instance=db-1', '2h', 'replacing', 'the', 'disk'])).toEqual({
      ok: true,
      request: {
        matchers: [
          { name: 'alertname', value: 'DiskFull', isRegex: false, isEqual: true },
          { name: 'instance', value: 'db-1', isRegex: false, isEqual: true },
        ],
        durationMs: 7_200_000,
        comment: 'replacing the disk',
      },
    });
  });

  it('leaves the comment empty when none is given', () => {
    expect(parseSilenceRequest(['alertname=X', '30m'])).toMatchObject({ ok: true, request: { comment: '' } });
  });

  it.each([
    [[], 'name at least one matcher'],
    [['2h'], 'name at least one matcher'],
    [['alertname=X'], 'say how long'],
    [['alertname=X', 'soon'], '"soon" is neither a matcher nor a duration'],
    [['alertname=X', '0m'], 'longer than 0s'],
    [['alertname=X', '91d'], 'at most 90d'],
  ])('refuses %j, saying what to change', (args, problem) => {
    const result = parseSilenceRequest(args);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toContain(problem);
  });

  it('refuses matchers that would silence every alert (Alertmanager refuses them too)', () => {
    for (const matcher of ['alertname=~.*', 'alertname=', 'alertname!=x', 'alertname!~x']) {
      expect(parseSilenceRequest([matcher, '1h'])).toEqual({ ok: false, problem: 'the matchers would silence every alert: at least one must need a value' });
    }
    expect(parseSilenceRequest(['alertname=~.*', 'severity=critical', '1h']).ok).toBe(true);
  });
});
