import type { SandboxContext } from '../context';
import { DeliveryEngine } from './delivery-engine';

/**
 * One delivery engine per sandbox context. The modules are shared constants used with many contexts
 * (every test builds its own), and the context belongs to the sandbox core, so the engine is found
 * by its context here rather than stored on it; the map holds contexts weakly.
 */
const engines = new WeakMap<SandboxContext, DeliveryEngine>();

export function deliveryEngineFor(ctx: SandboxContext): DeliveryEngine {
  let engine = engines.get(ctx);
  if (!engine) {
    engine = new DeliveryEngine(ctx);
    engines.set(ctx, engine);
  }
  return engine;
}
