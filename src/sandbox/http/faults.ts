import { z } from 'zod';

/** `POST /_sandbox/faults` — make a route fail or slow down, `count` times (DESIGN.md: Sandbox). */
export const FaultSchema = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  /** The path as on the wire, `*` matching one segment: `/api/open/v1/walls/*\/posts`. */
  path: z.string().startsWith('/'),
  status: z.number().int().min(400).max(599).optional(),
  latency_ms: z.number().int().min(0).max(120_000).optional(),
  /** How many matching requests fail; omitted: until cleared. */
  count: z.number().int().min(1).optional(),
});
export type Fault = z.infer<typeof FaultSchema>;

interface ActiveFault extends Fault {
  id: number;
  remaining: number;
  pattern: RegExp;
}

function compile(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) => (segment === '*' ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

export class FaultTable {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(fault: Fault): { id: number } {
    const active: ActiveFault = { ...fault, id: this.nextId++, remaining: fault.count ?? Number.POSITIVE_INFINITY, pattern: compile(fault.path) };
    this.faults.push(active);
    return { id: active.id };
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map(({ method, path, status, latency_ms, remaining }) => ({
      method,
      path,
      status,
      latency_ms,
      count: Number.isFinite(remaining) ? remaining : undefined,
    }));
  }

  /** The fault that applies to this request, counting it down; undefined when none. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.faults.find((f) => (!f.method || f.method === method) && f.pattern.test(path));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }
}
