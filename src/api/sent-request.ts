/**
 * One request the client put on the wire, as told to `ApiClientOptions.hooks.sent` (the runtime's metrics):
 * no URL, no path and no body, since a path carries ids and an incoming webhook's carries its token.
 */
export interface SentRequest {
  method: string;
  /** The platform's status; undefined when no answer came (a network fault, a timeout). */
  status: number | undefined;
  /** Which budget paced it: the token's, or an incoming webhook's own. */
  budget: 'token' | 'incoming_webhook';
  /** How long it waited for that budget before it was sent, on the client's clock. */
  waitedMs: number;
}

/** What the client tells of its requests, one named hook each (the runtime's: `PlatformRequestCount`, src/runtime/tenants.ts). */
export interface ClientHooks {
  /** Every request put on the wire, once answered or failed (metrics count them). */
  sent?(request: SentRequest): void;
}
