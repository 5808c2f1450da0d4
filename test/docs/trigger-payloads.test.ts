import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../src/webhooks/events';
import { safeParsePayload } from '../../src/webhooks/payloads';

/** The payload table of docs/cli.md, "Trigger payloads": event names and the JSON beside them. */
function documentedPayloads(): Map<string, unknown> {
  const text = readFileSync('docs/cli.md', 'utf8');
  const section = text.slice(text.indexOf('## Trigger payloads'));
  const payloads = new Map<string, unknown>();
  for (const row of section.matchAll(/^\| (`[^|]+`) \| `(\{.*\})` \|$/gm)) {
    for (const [, event] of row[1]!.matchAll(/`([^`]+)`/g)) payloads.set(event!, JSON.parse(row[2]!));
  }
  return payloads;
}

describe('docs/cli.md trigger payloads', () => {
  it('documents a payload for every event, each one the event schema accepts, with an id but for test', () => {
    const payloads = documentedPayloads();
    expect([...payloads.keys()].sort()).toEqual([...EVENT_NAMES].sort());
    for (const event of EVENT_NAMES) {
      const payload = payloads.get(event);
      expect(safeParsePayload(event, payload).success, event).toBe(true);
      if (event !== 'test') expect((payload as { id?: unknown }).id, event).toEqual(expect.any(Number));
    }
  });
});
