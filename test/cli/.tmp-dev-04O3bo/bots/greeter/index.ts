import { WORDS } from './words';
import { defineBot, z } from 'intrabot';

export default defineBot({
  config: z.object({ greeting: z.string().default('Hello') }),
  commands: {
    // named after the bot, so that it is the only one to answer it
    greeter: {
      description: 'Says hello back',
      run: async (cmd, ctx) => ctx.reply(WORDS),
    },
  },
});
