import { defineBot } from 'intrabot';
import { followRequest } from './follow-request';
import { HelpdeskConfigSchema } from './helpdesk-config';
import { openRequest } from './open-request';
import { showTicket } from './show-ticket';

/**
 * A helpdesk on a form: each new response of a desk form is posted on the triage wall (or sent to
 * the assignee a routing rule names), its updates are commented under that post, and `/ticket <id>`
 * tells its state.
 */
export default defineBot({
  config: HelpdeskConfigSchema,
  on: {
    'formresponse.created': openRequest,
    'formresponse.updated': followRequest,
  },
  commands: {
    ticket: {
      description: 'Shows the state of a request, e.g. "/ticket 12"',
      args: [{ name: 'id', required: true }],
      run: showTicket,
    },
  },
});
