import { z } from 'zod';

/** One positional argument, for help text: a bare name is a required argument. */
export const CommandArgSchema = z.union([
  z
    .string()
    .min(1)
    .transform((name) => ({ name, required: true })),
  z.strictObject({ name: z.string().min(1), description: z.string().optional(), required: z.boolean().default(true) }),
]);

export type CommandArg = z.output<typeof CommandArgSchema>;

/**
 * Who may run a command. `groups`: members of any of these groups; `managers`: managers (the
 * user's manager flag or a manager membership); both: managers of one of these groups.
 */
export const CommandPermissionsSchema = z.strictObject({
  groups: z.array(z.int().positive()).min(1).optional(),
  managers: z.boolean().optional(),
});

export type CommandPermissions = z.output<typeof CommandPermissionsSchema>;

/** A command's description, as `formatHelp` and `checkPermission` read it. */
export const CommandInfoSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  args: z.array(CommandArgSchema).default([]),
  permissions: CommandPermissionsSchema.optional(),
});

export type CommandInfo = z.input<typeof CommandInfoSchema>;

/** The part of a user a permission check reads (spec: User, `groups[].is_manager`, `is_manager`). */
export const CommandUserSchema = z.looseObject({
  is_manager: z.boolean().optional(),
  groups: z.array(z.looseObject({ id: z.int(), is_manager: z.boolean().optional() })).optional(),
});

export type CommandUser = z.infer<typeof CommandUserSchema>;
