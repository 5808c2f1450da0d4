/**
 * `intrabot/helpers`: the building blocks the example bots are made of, for bots of your own:
 * birthdays and work anniversaries in the tenant's zone, a local copy of the directory kept in sync
 * incrementally, awarding achievements, a user's department and its wall, Alertmanager silences, and
 * the alert posts of the bot's own inputs (acknowledged from the wall), and reading feeds (RSS, Atom,
 * JSON Feed) and calendars (iCalendar) with conditional GETs.
 */
export * from '../bots/helpers';
export { acknowledgeAlert, alertIncident, resolveAlertIncident, type AlertAcknowledgement, type AlertIncident } from '../bots/alert-incidents';
