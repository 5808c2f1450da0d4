import {
  ApiError,
  ApiForbiddenError,
  ApiHttpError,
  ApiNetworkError,
  ApiNotFoundError,
  ApiRateLimitedError,
  ApiServerError,
  ApiTimeoutError,
  ApiUnauthorizedError,
  ApiValidationError,
  parseFailingField,
  type RequestContext,
} from './errors';
import { rateLimitedWaitFromHeaders, retryAfterFromHeaders } from './rate-headers';
import { classifyTransportFault } from './transport';

/** The platform's error body (spec: Errors): `{ error, message }`, maybe more (not shown). */
interface ErrorBody {
  message: string;
  errors: unknown;
}

function readErrorBody(body: unknown): ErrorBody {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const message = typeof record.message === 'string' ? record.message : typeof record.error === 'string' ? record.error : '';
    return { message, errors: record.errors };
  }
  return { message: typeof body === 'string' ? body.slice(0, 200) : '', errors: undefined };
}

/** The error for a non-2xx answer. */
export function errorFromResponse(context: RequestContext & { status: number }, body: unknown, headers: Record<string, string>, nowMs: number): ApiError {
  const { message, errors } = readErrorBody(body);
  const status = context.status;
  if (status === 401) return new ApiUnauthorizedError(context, message || undefined);
  if (status === 403) return new ApiForbiddenError(context, message);
  if (status === 404) return new ApiNotFoundError(context);
  if (status === 422) return new ApiValidationError(context, message, parseFailingField(message, errors));
  if (status === 429) return new ApiRateLimitedError(context, rateLimitedWaitFromHeaders(headers, nowMs));
  if (status >= 500) return new ApiServerError(context, message, retryAfterFromHeaders(headers, nowMs));
  return new ApiHttpError(context, message);
}

/** The error for a request that got no answer. */
export function errorFromTransport(context: RequestContext, error: unknown): ApiError {
  const fault = classifyTransportFault(error);
  if (fault.kind === 'timeout') return new ApiTimeoutError(context, fault.phase, { cause: error });
  return new ApiNetworkError(context, fault.requestSent, { cause: error });
}
