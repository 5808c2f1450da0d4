import { describe, expect, it } from 'vitest';
import { ChatMessagePayloadSchema, IncomingWebhookCreateSchema, WallPostPayloadSchema } from '../../../src/api/schemas';
import { issues } from './issues';

describe('incoming webhook payloads (spec: Incoming webhooks)', () => {
  const item = { url: 'https://cdn.example.com/a.png', type: 'image' };

  it('takes at most 10 media items', () => {
    expect(issues(WallPostPayloadSchema, { text: 't', media: Array(10).fill(item) })).toEqual([]);
    expect(issues(WallPostPayloadSchema, { text: 't', media: Array(11).fill(item) })[0]?.path).toBe('media');
  });

  it('accepts mixed media on a wall post but not on a chat message', () => {
    const mixed = [item, { url: 'https://cdn.example.com/a.pdf', type: 'document' }];
    expect(issues(WallPostPayloadSchema, { text: 't', media: mixed })).toEqual([]);
    expect(issues(ChatMessagePayloadSchema, { text: 't', media: mixed })[0]?.path).toBe('media');
  });

  it('requires the target the action needs on management create (DESIGN.md)', () => {
    expect(issues(IncomingWebhookCreateSchema, { name: 'n', action: 'wall_post' })[0]?.path).toBe('wall_id');
    expect(issues(IncomingWebhookCreateSchema, { name: 'n', action: 'direct_message', user_id: 2 })[0]?.path).toBe('bot_user_id');
    expect(issues(IncomingWebhookCreateSchema, { name: 'n', action: 'calendar_entry' })).toEqual([]);
  });
});
