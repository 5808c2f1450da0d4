import { IntrabotError, type IntrabotErrorOptions } from '../errors';

/** A template that is missing, misnamed or fails to render; names the template. */
export class TemplateError extends IntrabotError {
  readonly template: string;
  constructor(template: string, message: string, options: IntrabotErrorOptions = {}) {
    super('template_error', `template ${template}: ${message}`, { ...options, details: { template, ...options.details } });
    this.template = template;
  }
}
