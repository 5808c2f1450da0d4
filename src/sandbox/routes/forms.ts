import type { SandboxModule } from '../module';
import { seedForms } from '../seed/forms';
import { registerFormApi } from './forms/form-api';
import { registerFormControl } from './forms/form-control';

/**
 * Forms and form responses (spec: Other endpoints that exist; Events, formresponse.*): the read API,
 * and the control API's employee and staff actions that fire the form-response events.
 */
export const formsModule: SandboxModule = {
  name: 'forms',
  api(router, ctx) {
    registerFormApi(router, ctx);
  },
  control(app, ctx) {
    registerFormControl(app, ctx);
  },
  seed(ctx, options) {
    if (options.seed !== 'empty') seedForms(ctx);
  },
};
