import { ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { tracedApi, type IntrabotApi } from '../../src/api/create-api-client';
import { endpoints } from '../../src/api/schemas/endpoints';

/** A client that records what it is asked, in place of the real one. */
function recordingClient() {
  return {
    root: new URL('http://platform.test/api/open/v1'),
    call: vi.fn(async () => ({ id: 3 })),
    paginate: vi.fn(() => [][Symbol.iterator]()),
    request: vi.fn(async () => ({ status: 200, headers: {}, body: null })),
    paginateRequest: vi.fn(() => [][Symbol.iterator]()),
    close: vi.fn(async () => undefined),
  };
}

describe('a handler run’s traced view of the API client (tracedApi)', () => {
  const trace = ROOT_CONTEXT.setValue(Symbol('a step'), 'run 1');

  it("sends every call of a resource group, and every raw request, with the run's trace context", async () => {
    const client = recordingClient();
    const api = tracedApi(client as unknown as IntrabotApi, trace);
    await api.walls.get(3);
    await api.request({ method: 'GET', path: '/walls' });
    expect(client.call).toHaveBeenCalledWith(endpoints['walls.get'], { params: { id: 3 }, trace });
    expect(client.request).toHaveBeenCalledWith({ method: 'GET', path: '/walls', trace });
  });

  it('has every group the client has, the file conveniences included, each made once, and closes nothing', async () => {
    const client = recordingClient();
    const api = tracedApi(client as unknown as IntrabotApi, trace);
    expect('users' in api && 'media' in api).toBe(true);
    expect(api.users).toBe(api.users);
    expect(typeof api.media.uploadFile).toBe('function');
    expect(typeof api.posts.createWithMedia).toBe('function');
    expect(api.root).toBe(client.root);
    await api.close();
    expect(client.close).not.toHaveBeenCalled();
  });
});
