import { describe, expect, it } from 'vitest';
import { alertSample } from '../../src/testing';

describe('alertSample', () => {
  it('gives the shipped sample of a monitoring tool as the text it sends', () => {
    expect(JSON.parse(alertSample('alertmanager-firing.json'))).toMatchObject({ status: 'firing', alerts: expect.any(Array) });
  });

  it('refuses a name that is not a sample file, and names the folder for one that is not there', () => {
    expect(() => alertSample('../package.json')).toThrow(/not a sample's file name/);
    expect(() => alertSample('nagios.json')).toThrow(/no sample nagios\.json in .*alert-samples/);
  });
});
