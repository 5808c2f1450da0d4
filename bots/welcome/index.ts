import { defineBot, z } from 'intrabot';
import { departmentWallOf, readUserWithDepartment } from 'intrabot/helpers';

const LinkSchema = z.object({ title: z.string().min(1), url: z.string().min(1) });

/**
 * Greets new colleagues: a direct message with onboarding links on `user.registered`, and a post on
 * their department's wall on `onboarding.completed`.
 */
export default defineBot({
  config: z.object({
    links: z.array(LinkSchema).default([]),
    /** A wall name or id for users without a department wall; empty: no post for them. */
    fallback_wall: z.string().default(''),
  }),
  on: {
    'user.registered': async (event, ctx) => {
      const user = event.payload;
      const firstName = user.first_name || user.name.split(' ')[0] || user.name;
      await ctx.dm(user.id, { template: 'welcome-dm', data: { user: { ...user, first_name: firstName }, links: ctx.config.links } });
    },
    'onboarding.completed': async (event, ctx) => {
      const userId = event.payload.user?.id ?? event.payload.id;
      if (userId === undefined) {
        ctx.log.warn('onboarding.completed without a user id: nothing to celebrate');
        return;
      }
      const { user, department } = await readUserWithDepartment(ctx, userId);
      const wall = department ? await departmentWallOf(ctx, department.id) : undefined;
      const target = wall ?? (ctx.config.fallback_wall || undefined);
      if (target === undefined) {
        ctx.log.info('no department wall and no fallback wall: no post', { user: userId });
        return;
      }
      await ctx.post({ wall: target }, { template: 'onboarding-completed', data: { user, department: department ?? null } });
    },
  },
});
