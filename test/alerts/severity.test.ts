import { describe, expect, it } from 'vitest';
import { normalizeSeverity } from '../../src/alerts/severity';

describe('normalizeSeverity', () => {
  it.each([
    ['critical', 'critical'],
    ['Disaster', 'critical'],
    ['fatal', 'critical'],
    ['P1', 'critical'],
    ['High', 'error'],
    ['error', 'error'],
    ['warn', 'warning'],
    ['Average', 'warning'],
    ['info', 'info'],
    ['P5', 'info'],
    ['whatever', 'none'],
    [undefined, 'none'],
  ])('maps %j to %s', (raw, expected) => {
    expect(normalizeSeverity(raw)).toBe(expected);
  });
});
