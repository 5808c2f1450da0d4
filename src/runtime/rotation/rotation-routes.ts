import type { FastifyInstance } from 'fastify';
import type { RuntimeParts } from '../runtime-parts';

/**
 * The admin routes of secret rotation, registered inside `adminRoutes` (behind its guard):
 * `POST /_admin/rotations/:tenant/:bot` begins one and answers once both secrets are accepted and the new
 * endpoint receives every event; `GET /_admin/rotations` lists each bot's last rotation. No secret is in
 * either answer: a plan holds endpoint ids, events and times only.
 */
export async function rotationRoutes(admin: FastifyInstance, parts: Pick<RuntimeParts, 'rotations'>): Promise<void> {
  admin.post<{ Params: { tenant: string; bot: string } }>('/_admin/rotations/:tenant/:bot', async (request) => {
    const { tenant, bot } = request.params;
    return { ok: true, rotation: await parts.rotations.rotate(tenant, bot) };
  });

  admin.get('/_admin/rotations', async () => ({ data: await parts.rotations.list() }));
}
