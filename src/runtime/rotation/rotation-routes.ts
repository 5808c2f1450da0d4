import type { FastifyInstance } from 'fastify';
import type { SecretRotations } from './secret-rotations';

/** What the rotation routes use: the secret rotations alone. */
export interface RotationRouteDeps {
  rotations: Pick<SecretRotations, 'rotate' | 'list'>;
}

/**
 * The admin routes of secret rotation, registered inside `adminRoutes` (behind its guard):
 * `POST /_admin/rotations/:tenant/:bot` begins one and answers once both secrets are accepted and the new
 * endpoint receives every event; `GET /_admin/rotations` lists each bot's last rotation. No secret is in
 * either answer: a plan holds endpoint ids, events and times only.
 */
export async function rotationRoutes(admin: FastifyInstance, deps: RotationRouteDeps): Promise<void> {
  admin.post<{ Params: { tenant: string; bot: string } }>('/_admin/rotations/:tenant/:bot', async (request) => {
    const { tenant, bot } = request.params;
    return { ok: true, rotation: await deps.rotations.rotate(tenant, bot) };
  });

  admin.get('/_admin/rotations', async () => ({ data: await deps.rotations.list() }));
}
