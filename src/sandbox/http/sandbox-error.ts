/**
 * An error the sandbox answers exactly as the platform would (spec: Errors): `{ error, message }`,
 * except 404, which has no body.
 */
export class SandboxHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SandboxHttpError';
  }
}

export const notFound = (): SandboxHttpError => new SandboxHttpError(404, null, 'Not found');

/** 422 `validation_error`; the message names the field (`awards.1.user_id: ...`). */
export const validationError = (field: string, message: string): SandboxHttpError => new SandboxHttpError(422, 'validation_error', `${field}: ${message}`);

export const forbidden = (message: string): SandboxHttpError => new SandboxHttpError(403, 'forbidden', message);

export const unauthorized = (message = 'Unauthenticated.'): SandboxHttpError => new SandboxHttpError(401, 'unauthorized', message);

export const notImplemented = (what: string): SandboxHttpError =>
  new SandboxHttpError(501, 'not_implemented', `The sandbox does not emulate ${what} yet; the real platform does.`);
