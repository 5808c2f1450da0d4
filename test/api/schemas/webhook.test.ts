import { describe, expect, it } from 'vitest';
import { WebhookCreateSchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('webhook bodies (spec: Outgoing webhook management, Create body)', () => {
  const base = { name: 'hooks', events: ['service.post.created'] };

  it('refuses an http url except on a loopback host', () => {
    expect(issues(WebhookCreateSchema, { ...base, url: 'http://example.com/hooks' })[0]?.path).toBe('url');
    expect(issues(WebhookCreateSchema, { ...base, url: 'https://example.com/hooks' })).toEqual([]);
    expect(issues(WebhookCreateSchema, { ...base, url: 'http://127.0.0.1:3000/hooks/sandbox/kudos' })).toEqual([]);
    expect(issues(WebhookCreateSchema, { ...base, url: 'http://localhost:3000/hooks' })).toEqual([]);
    expect(issues(WebhookCreateSchema, { ...base, url: 'http://localhost.example.com/hooks' })[0]?.path).toBe('url');
  });

  it('requires at least one event', () => {
    expect(issues(WebhookCreateSchema, { ...base, events: [], url: 'https://x.test' })[0]?.path).toBe('events');
  });

  it('requires auth_header with api_key auth (spec: Delivery auth headers)', () => {
    expect(issues(WebhookCreateSchema, { ...base, url: 'https://x.test', auth_type: 'api_key', auth_value: 'k' })[0]?.path).toBe('auth_header');
  });
});
