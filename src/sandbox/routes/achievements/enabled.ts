import type { SandboxContext } from '../../context';
import { forbidden } from '../../http/sandbox-error';

/** spec: Achievements — with the feature disabled for the company, every achievement endpoint answers 403. */
export function requireAchievementsEnabled(ctx: SandboxContext): void {
  if (!ctx.settings.achievements_enabled) throw forbidden('The achievements feature is not enabled for this company.');
}
