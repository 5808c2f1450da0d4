import { setTimeout as sleep } from 'node:timers/promises';
import type { PlatformEvent } from '../../src/sandbox/events';
import type { Rig } from './rig';

export const PATH_NAMES = ['event', 'cron', 'alert'] as const;
export type PathName = (typeof PATH_NAMES)[number];

/** One trigger of a path, and how to tell it played out on the platform. */
export interface PathTrigger {
  path: PathName;
  /** The path as issue #25's table names it. */
  route: string;
  /** Outside the window: what must hold before the trigger (the clock just short of a cron slot). */
  prepare?(rig: Rig): Promise<void>;
  /** Inside the window: sets the trigger off; resolves with what it made once the platform has it. */
  fire(rig: Rig, run: number): Promise<string>;
}

const isPost = (event: PlatformEvent, wallId: number, body: (text: string) => boolean): boolean =>
  event.event === 'post.created' && event.payload.wall_id === wallId && typeof event.payload.body === 'string' && body(event.payload.body);

/** An employee posts `/ping` on the pinger's wall; the platform delivers it signed; the bot comments `pong`. */
export const eventTrigger: PathTrigger = {
  path: 'event',
  route: 'POST /hooks/:tenant/:bot -> /ping -> comment',
  async fire(rig) {
    const comment = rig.nextEvent((e) => e.event === 'comment.created' && e.payload.body === 'pong');
    // together, so a failed post leaves no outcome-watch rejecting unobserved later
    const [post, made] = await Promise.all([rig.platform.employeePost(rig.refs.employee_ids[0]!, { wall_id: rig.pingWallId, body: '/ping' }), comment]);
    if (made.payload.post_id !== post.id) throw new Error(`path-coverage: pong landed on post ${String(made.payload.post_id)}, not ${post.id}`);
    return `comment ${String(made.payload.id)} "pong" on post ${post.id}`;
  },
};

/** The ticker's hourly slot comes (the clock is moved to just before it, outside the window) and its job posts. */
export const cronTrigger: PathTrigger = {
  path: 'cron',
  route: 'cron slot -> ctx.post -> post',
  prepare: (rig) => nearSlot(rig),
  async fire(rig) {
    const made = await rig.nextEvent((e) => isPost(e, rig.targetWallId, (body) => body === 'tick'), 5_000);
    return `post ${String(made.payload.id)} "tick" on wall ${rig.targetWallId}`;
  },
};

/** An Alertmanager notification (a new alert each run, so dedupe never swallows it) to the alerter's input. */
export const alertTrigger: PathTrigger = {
  path: 'alert',
  route: 'POST /alerts/:bot/:input -> post',
  async fire(rig, run) {
    const name = `PathProbe${run}`;
    const made = rig.nextEvent((e) => isPost(e, rig.targetWallId, (body) => body.includes(name)));
    const sent = async (): Promise<void> => {
      const res = await fetch(`${rig.baseUrl}/alerts/alerter/alertmanager`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${rig.alertToken}` },
        body: JSON.stringify(alertmanagerBody(name, rig.clock.now())),
      });
      if (res.status !== 202) throw new Error(`path-coverage: the alert input answered ${res.status}: ${await res.text()}`);
    };
    const [, post] = await Promise.all([sent(), made]);
    return `post ${String(post.payload.id)} for alert ${name} on wall ${rig.targetWallId}`;
  },
};

export const TRIGGERS: Record<PathName, PathTrigger> = { event: eventTrigger, cron: cronTrigger, alert: alertTrigger };

const HOUR_MS = 3_600_000;
/** How long before the slot the clock is put: room for what the jump sets off to finish. */
const LEAD_MS = 2_000;
/** The window opens this long before the slot fires. */
const OPEN_BEFORE_MS = 250;

/**
 * Moves the shared clock (through the sandbox's control API, as a test does) to two seconds before the
 * next hourly slot, lets what the jump set off (timers that came due: heartbeat, rotations, the
 * platform's ticks) play out, then waits in real time until the slot is a quarter second away. Tries
 * the next hour when settling took too long.
 */
async function nearSlot(rig: Rig): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const slot = Math.ceil((rig.clock.now() + LEAD_MS + 1_000) / HOUR_MS) * HOUR_MS;
    await rig.platform.advance((slot - LEAD_MS - rig.clock.now()) / 1000);
    await rig.quiet(200);
    const left = slot - rig.clock.now();
    if (left >= OPEN_BEFORE_MS) {
      await sleep(left - OPEN_BEFORE_MS);
      return;
    }
    // settling outlasted the lead: this slot fires outside the window; once its run is over, the next hour
    await sleep(Math.max(0, left) + 500);
    await rig.quiet();
  }
  throw new Error('path-coverage: could not open a window just before a cron slot');
}

function alertmanagerBody(name: string, nowMs: number): Record<string, unknown> {
  const labels = { alertname: name, severity: 'warning', service: 'path-probe' };
  return {
    version: '4',
    receiver: 'path-coverage',
    status: 'firing',
    groupKey: `{}:{alertname="${name}"}`,
    groupLabels: { alertname: name },
    commonLabels: labels,
    commonAnnotations: {},
    externalURL: 'http://alertmanager.invalid',
    truncatedAlerts: 0,
    alerts: [
      {
        status: 'firing',
        labels,
        annotations: { summary: `${name} fired for the path measurement` },
        startsAt: new Date(nowMs).toISOString(),
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.invalid/graph',
        fingerprint: name.toLowerCase(),
      },
    ],
  };
}
