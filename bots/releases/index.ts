import { defineBot } from 'intrabot';

/**
 * Release notes and failed CI runs from GitHub and GitLab: everything comes in through the alert
 * inputs of bot.yaml (every one checked by its sender's signature: the CI runs by the github and
 * gitlab formats, the release events by mappings of our own with scheme github or gitlab), rendered
 * with this bot's templates (the release notes' markdown as plain text by `{{markdown}}`).
 */
export default defineBot({});
