/**
 * One request the client put on the wire, as told to `ApiClientOptions.onSent` (the runtime's metrics):
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

export type OnSent = (request: SentRequest) => void;
