import type { LinkKind } from '../alert';

/** What a link is for, guessed from its title (`Runbook :green_book:`, `Silence 1h`, `Grafana`). */
export function guessLinkKind(title: string, fallback: LinkKind): LinkKind {
  if (/runbook|playbook/i.test(title)) return 'runbook';
  if (/silence|mute|snooze/i.test(title)) return 'silence';
  if (/dashboard|grafana/i.test(title)) return 'dashboard';
  if (/panel|graph/i.test(title)) return 'panel';
  return fallback;
}
