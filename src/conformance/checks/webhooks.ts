import type { IntrabotApi } from '../../api/create-api-client';
import { ApiValidationError } from '../../api/errors';
import { sign } from '../../webhooks/signature';
import { skip, type ConformanceCheck } from '../check';
import { expectEqual, expectRejects, expectThat, show } from '../expect';
import { startDeliveryReceiver, type ReceivedDelivery } from '../receiver';
import { MARK, orSkipWhenForbidden } from './support';

/** Nothing listens there; the endpoint is revoked before anything could be delivered. */
const PARKED_URL = 'https://example.com/intrabot-conformance';
const SECRET_HINT_LENGTH = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DELIVERY_WAIT_MS = 5_000;

/** Runs `body` with a new endpoint, and revokes the endpoint whatever happens (no hard delete exists). */
async function withEndpoint(
  api: IntrabotApi,
  input: { url: string; events: string[] },
  body: (endpoint: { id: number; secret: string }) => Promise<void>,
): Promise<void> {
  const endpoint = await orSkipWhenForbidden(api.webhooks.create({ name: MARK, ...input }), 'POST /webhooks');
  try {
    await body(endpoint);
  } finally {
    await api.webhooks.revoke(endpoint.id);
  }
}

const secretMasked: ConformanceCheck = {
  id: 'webhooks.secret-masked',
  title: 'a new endpoint shows its secret masked to 8 characters, /secret reveals it, revoke keeps the record',
  section: 'Outgoing webhook endpoint; Outgoing webhook management',
  readOnly: false,
  async run(api, ctx) {
    let id = 0;
    await withEndpoint(api, { url: PARKED_URL, events: [`${ctx.eventPrefix}.post.created`] }, async (endpoint) => {
      id = endpoint.id;
      expectEqual(endpoint.secret.length, SECRET_HINT_LENGTH, 'length of secret in the create answer');
      expectEqual((await api.webhooks.get(endpoint.id)).secret, endpoint.secret, 'secret in GET /webhooks/{id}');
      const { secret } = await api.webhooks.secret(endpoint.id);
      expectThat(secret.length > SECRET_HINT_LENGTH, `GET /webhooks/{id}/secret answered ${secret.length} characters, not the full secret`);
      expectThat(secret.startsWith(endpoint.secret), 'the masked secret is not the first 8 characters of the revealed one');
    });
    const revoked = await api.webhooks.get(id);
    expectThat(revoked.revoked_at !== null, 'revoked_at is null after POST /webhooks/{id}/revoke');
  },
};

const unknownEvent: ConformanceCheck = {
  id: 'webhooks.unknown-event',
  title: 'an endpoint subscribing to an unknown event is a 422',
  section: 'Outgoing webhook management (create body); Errors (422)',
  readOnly: false,
  async run(api, ctx) {
    const attempt = api.webhooks.create({ name: MARK, url: PARKED_URL, events: [`${ctx.eventPrefix}.no_such_event`] });
    let created: number | undefined;
    try {
      await expectRejects(
        attempt.then((e) => (created = e.id)),
        ApiValidationError,
        'POST /webhooks with an unknown event',
      );
    } finally {
      if (created !== undefined) await api.webhooks.revoke(created);
    }
  },
};

/** The envelope and signature of a ping delivery (spec: Events, Outgoing webhooks). */
function checkTestDelivery(delivery: ReceivedDelivery, secret: string, prefix: string): void {
  const signature = delivery.headers.signature;
  const timestamp = delivery.headers.timestamp;
  expectThat(signature !== undefined && timestamp !== undefined, `the ping delivery lacks Signature or Timestamp: ${show(Object.keys(delivery.headers))}`);
  expectEqual(signature, sign(secret, timestamp, delivery.rawBody), 'Signature of the ping delivery (HMAC-SHA256 of <Timestamp>.<body>)');
  const envelope = JSON.parse(delivery.rawBody) as Record<string, unknown>;
  expectEqual(envelope.event, `${prefix}.test`, 'event of the ping delivery');
  expectEqual(envelope.version, 'v1', 'version of the ping delivery');
  expectThat(typeof envelope.id === 'string' && UUID.test(envelope.id), `id of the ping delivery is ${show(envelope.id)}, not a UUID`);
  expectThat(Number.isInteger(envelope.timestamp), `timestamp of the ping delivery is ${show(envelope.timestamp)}`);
  expectThat(typeof envelope.customer === 'string' && envelope.customer !== '', 'the ping delivery has no customer');
  expectThat(typeof envelope.payload === 'object' && envelope.payload !== null, 'the ping delivery has no payload object');
}

const pingSigned: ConformanceCheck = {
  id: 'webhooks.ping-signed',
  title: 'ping delivers a signed service.test envelope to the endpoint',
  section: 'Outgoing webhook management (ping); Events (Outgoing webhooks)',
  readOnly: false,
  async run(api, ctx) {
    if (!ctx.sandbox) skip('needs a receiver the host can reach; the platform cannot reach this machine');
    const receiver = await startDeliveryReceiver();
    try {
      await withEndpoint(api, { url: `${receiver.url}/conformance`, events: [`${ctx.eventPrefix}.post.created`] }, async (endpoint) => {
        const { secret } = await api.webhooks.secret(endpoint.id);
        const result = await api.webhooks.ping(endpoint.id);
        expectEqual(result.ok, true, `ok of the ping answer (status ${show(result.status)})`);
        const [delivery] = await receiver.waitFor(1, DELIVERY_WAIT_MS);
        expectThat(delivery !== undefined, 'the receiver got no delivery after the ping');
        checkTestDelivery(delivery, secret, ctx.eventPrefix);
      });
    } finally {
      await receiver.close();
    }
  },
};

export const webhookChecks: ConformanceCheck[] = [secretMasked, unknownEvent, pingSigned];
