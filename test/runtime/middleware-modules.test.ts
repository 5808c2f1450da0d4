import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src';
import { loadConfig } from '../../src/runtime/config/config';
import { loadMiddlewareModules } from '../../src/runtime/config/middleware-modules';
import { startPair, type Pair } from '../../src/testing';

// issue #16, item 2: runtime-wide middleware from a module named in intrabot.yaml / INTRABOT_MIDDLEWARE
const FIXTURES = resolve('test/fixtures/middleware-modules');

describe('runtime-wide middleware named in the configuration', () => {
  let pair: Pair | undefined;
  afterAll(async () => pair?.close());

  it('INTRABOT_MIDDLEWARE names modules, resolved from the working directory', () => {
    const config = loadConfig({ env: { INTRABOT_MIDDLEWARE: 'middleware/a.ts, ./b.ts' }, cwd: '/srv/bots' });
    expect(config.middleware).toEqual(['/srv/bots/middleware/a.ts', '/srv/bots/b.ts']);
  });

  it('runs a named module around every bot of the runtime, over HTTP', async () => {
    pair = await startPair({ bots: ['ops'], env: { INTRABOT_MIDDLEWARE: `${FIXTURES}/oncall-note.ts` } });
    const refs = await pair.refs();
    const post = await pair.platform.employeePost(refs.employee_ids[0]!, { wall_id: refs.company_wall_id, body: '/oncall' });
    const comments = await pair.platform.waitFor(
      () => pair!.platform.commentsOn(post.id),
      (c) => c.length > 0,
    );
    expect(comments.map((c) => c.body)).toEqual(['On call: ask the middleware.']);
  });

  it('refuses a module that is missing or exports no middleware, naming the setting and the file', async () => {
    await expect(loadMiddlewareModules([`${FIXTURES}/nope.ts`], 'INTRABOT_MIDDLEWARE')).rejects.toThrow(
      new ConfigError('INTRABOT_MIDDLEWARE', `INTRABOT_MIDDLEWARE: no middleware module at ${FIXTURES}/nope.ts`),
    );
    await expect(loadMiddlewareModules([`${FIXTURES}/not-middleware.ts`], 'intrabot.yaml: middleware')).rejects.toThrow(
      /^intrabot\.yaml: middleware: .*not-middleware\.ts must default-export a middleware/,
    );
  });

  it('a start with a bad module fails before anything listens', async () => {
    await expect(startPair({ bots: ['ops'], env: { INTRABOT_MIDDLEWARE: `${FIXTURES}/not-middleware.ts` } })).rejects.toThrow(
      /INTRABOT_MIDDLEWARE: .*must default-export a middleware/,
    );
  });
});
