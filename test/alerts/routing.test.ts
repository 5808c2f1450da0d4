import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/alerts/alert';
import { parseAlertmanager } from '../../src/alerts/adapters/alertmanager';
import { parseSlack } from '../../src/alerts/adapters/slack';
import { compileRouting, routeAlert, routeAlerts } from '../../src/alerts/routing';
import { InvalidInputError } from '../../src/errors';
import { fixture } from './load-fixture';

const alerts = (): Alert[] => parseAlertmanager(fixture('alertmanager-firing.json'))[0]?.alerts ?? [];

describe('routing', () => {
  it('sends severity=critical to the on-call chat and the rest to the default wall', () => {
    const routing = compileRouting({ routes: [{ match: { severity: 'critical' }, targets: ['oncall-chat'] }], default: ['ops-wall'] });
    expect(alerts().map((alert) => [alert.labels.alertname, routeAlert(routing, alert)])).toEqual([
      ['HighHTTPErrorRate', ['oncall-chat']],
      ['KubePodCrashLooping', ['ops-wall']],
      ['KubePodCrashLooping', ['ops-wall']],
    ]);
  });

  it('lets the first matching rule win', () => {
    const routing = compileRouting({
      routes: [
        { match: { team: 'payments' }, targets: ['payments-wall'] },
        { match: { severity: 'warning' }, targets: ['warnings-wall'] },
      ],
    });
    expect(routeAlert(routing, alerts()[1]!)).toEqual(['payments-wall']);
  });

  it('keeps looking after a rule that says continue', () => {
    const routing = compileRouting({
      routes: [
        { match: { severity: 'critical' }, targets: ['oncall-chat'], continue: true },
        { match: { team: 'checkout' }, targets: ['checkout-wall', 'oncall-chat'] },
      ],
      default: ['ops-wall'],
    });
    expect(routeAlert(routing, alerts()[0]!)).toEqual(['oncall-chat', 'checkout-wall']);
  });

  it('matches any value of a list and anchored ~regex', () => {
    const routing = compileRouting({
      routes: [
        { match: { team: ['payments', 'ledger'] }, targets: ['money'] },
        { match: { alertname: '~High.*' }, targets: ['http'] },
        { match: { alertname: '~Rate' }, targets: ['never'] },
      ],
      default: ['rest'],
    });
    expect(alerts().map((alert) => routeAlert(routing, alert))).toEqual([['http'], ['money'], ['money']]);
  });

  it('requires every label of a rule to match', () => {
    const routing = compileRouting({ routes: [{ match: { severity: 'critical', team: 'payments' }, targets: ['x'] }], default: ['d'] });
    expect(alerts().map((alert) => routeAlert(routing, alert))).toEqual([['d'], ['d'], ['d']]);
  });

  it('falls back to the normalised severity when the source has no severity label', () => {
    const slack = parseSlack(fixture('slack-compatible-text.json'))[0]?.alerts[0]!;
    const routing = compileRouting({ routes: [{ match: { severity: ['critical', 'error'] }, targets: ['oncall-chat'] }], default: ['wall'] });
    expect(routeAlert(routing, slack)).toEqual(['oncall-chat']);
  });

  it('routes nowhere when nothing matches and there is no default', () => {
    const routing = compileRouting({ routes: [{ match: { team: 'nobody' }, targets: ['x'] }] });
    expect(routeAlert(routing, alerts()[0]!)).toEqual([]);
  });

  it('groups alerts by target', () => {
    const routing = compileRouting({ routes: [{ match: { severity: 'critical' }, targets: ['oncall-chat'] }], default: ['ops-wall'] });
    const byTarget = routeAlerts(routing, alerts());
    expect([...byTarget.keys()]).toEqual(['oncall-chat', 'ops-wall']);
    expect(byTarget.get('ops-wall')?.map((a) => a.fingerprint)).toEqual(['5692f796e9a8018c', '492fa31fd984e94b']);
  });

  it('names the rule and label of a regex that does not compile', () => {
    const call = () => compileRouting({ routes: [{ match: { severity: '~(crit' }, targets: ['x'] }] });
    expect(call).toThrow(InvalidInputError);
    expect(call).toThrow(/routing\.routes\.0\.match\.severity/);
  });

  it('names the field of a rule without targets', () => {
    expect(() => compileRouting({ routes: [{ match: {}, targets: [] }] })).toThrow(/routing\.routes\.0\.targets/);
  });
});
