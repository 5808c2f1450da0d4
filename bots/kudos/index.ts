import { defineBot } from 'intrabot';
import { celebrateAward } from './celebrate-award';
import { giveKudos } from './give-kudos';
import { KudosConfigSchema } from './kudos-config';

/**
 * Celebrates achievements: a post on the department wall for public awards, and `/kudos Full Name
 * for reason`, which awards the configured achievement and posts the reason.
 */
export default defineBot({
  config: KudosConfigSchema,
  on: {
    'achievement.awarded': celebrateAward,
  },
  commands: {
    kudos: {
      description: 'Thanks a colleague: /kudos Full Name for the reason',
      args: [{ name: 'name', description: 'the full name, quoted if it contains "for"' }, { name: 'reason' }],
      run: giveKudos,
    },
  },
});
