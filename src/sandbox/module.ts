import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context';
import type { ApiRouter } from './http/api-router';

export type SeedName = 'demo' | 'empty' | 'large';

export interface SeedOptions {
  seed: SeedName;
  /** For `large`: how many users (default 10,000). */
  users?: number;
}

/**
 * One area of the emulated platform. Each module registers its API routes, its control routes
 * (`/_sandbox/...`) and its tick handlers, and seeds its part of the data. Modules share state
 * through the context's database; they never import each other's route files.
 */
export interface SandboxModule {
  name: string;
  api?(router: ApiRouter, ctx: SandboxContext): void;
  control?(app: FastifyInstance, ctx: SandboxContext): void;
  /** Called once at start (after routes), e.g. to register tick handlers or event listeners. */
  start?(ctx: SandboxContext): void;
  /** Adds this module's seed data; runs in module order after the database was cleared. */
  seed?(ctx: SandboxContext, options: SeedOptions): void;
}
