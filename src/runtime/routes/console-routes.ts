import type { FastifyInstance } from 'fastify';
import { registerConsole } from '../../console/console-plugin';
import { consoleDepsFrom } from '../../console/runtime-wiring';
import type { RuntimeParts } from '../runtime-parts';

/** `/console/`: the web console (loopback, or the admin token outside sandbox mode). */
export async function consoleRoutes(app: FastifyInstance, parts: RuntimeParts): Promise<void> {
  registerConsole(app, consoleDepsFrom(parts));
}
