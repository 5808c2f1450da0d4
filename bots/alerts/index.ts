import { defineBot } from 'intrabot';
import { ackCommand, ackComment } from './acknowledge';
import { watchSilences } from './ack-silence';
import { SilencesConfigSchema } from './config';
import { listSilences, silence, unsilence } from './silences';

// The alert inputs in bot.yaml do the work: parse, dedupe, route, render (templates/alerts/*), send.
// The commands answer alerts from the wall: an acknowledgement shown on the alert's post, and silences
// in Alertmanager, made and ended by name; with `silence_on_ack`, an acknowledgement silences its group
// until it resolves, which the `watch-silences` job learns from Alertmanager.
export default defineBot({
  config: SilencesConfigSchema,
  // a plain "ack" comment under an alert post acknowledges it, as /ack does
  on: { 'comment.created': ackComment },
  jobs: { 'watch-silences': watchSilences },
  commands: {
    ack: {
      description: 'Acknowledges the alert post it is written under: "ack" or "/ack" as a comment',
      // anyone who reads the wall may take an alert; `permissions` here restricts it as for /silence
      run: ackCommand,
    },
    silence: {
      description: 'Silences alerts in Alertmanager, e.g. "/silence alertname=DiskFull instance=db-1 2h replacing the disk"',
      args: [
        { name: 'matchers', description: 'label=value, label!=value, label=~regex or label!~regex, one or more' },
        { name: 'duration', description: '30m, 2h, 1d, 1h30m (at most 90d)' },
        { name: 'comment', required: false },
      ],
      // who may silence: managers here; `groups: [<on-call group id>]` lets an on-call group do it
      permissions: { managers: true },
      run: silence,
    },
    silences: {
      description: 'Lists the active and pending silences',
      run: listSilences,
    },
    unsilence: {
      description: 'Ends a silence now, e.g. "/unsilence 6a1f..."',
      args: [{ name: 'id', description: 'the silence id /silences shows' }],
      permissions: { managers: true },
      run: unsilence,
    },
  },
});
