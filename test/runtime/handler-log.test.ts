import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../src/clock';
import { directoryRefs } from '../../src/sandbox/seed/directory-refs';
import { SandboxControl } from '../../src/testing';
import { startLoggedRuntime, type LoggedRuntime } from '../helpers/logged-runtime';

/** The runtime mounted on an app of the test's own, whose log lines the test reads (JSON). */
describe("a handler's ctx.log", () => {
  let logged: LoggedRuntime;

  beforeAll(async () => {
    logged = await startLoggedRuntime({ clock: new AdjustableClock(), botsDir: 'test/fixtures/bots', only: ['echo'], level: 'info' });
  });
  afterAll(async () => logged?.close());

  it('is bound to the bot, the tenant and the delivery id', async () => {
    const { sandbox, lines } = logged;
    const platform = new SandboxControl(sandbox.baseUrl);
    const refs = directoryRefs(sandbox.ctx)!;
    const post = await platform.employeePost(refs.employee_ids[1]!, { wall_id: refs.company_wall_id, body: 'log this' });
    await platform.waitFor(
      () => platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    const [delivery] = await platform.deliveries({ event: 'service.post.created' });
    const deliveryId = (JSON.parse(String(delivery!.body)) as { id: string }).id;
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'echoing', bot: 'echo', tenant: 'sandbox', delivery: deliveryId, level: 30 }));
  });
});
