import { expect } from 'vitest';
import { ConfigError } from '../../src/errors';

/** The ConfigError `fn` throws (the test fails when it throws nothing, or something else). */
export function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}
