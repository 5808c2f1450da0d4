/**
 * `intrabot/helpers`: the building blocks the example bots are made of, for bots of your own:
 * birthdays and work anniversaries in the tenant's zone, a local copy of the directory kept in sync
 * incrementally, awarding achievements, a user's department and its wall.
 */
export * from '../bots/helpers';
