import { describe, expect, it } from 'vitest';
import { createTemplateEngine } from '../../src/templates/template-engine';
import { NEUTRAL_AT, plain } from '../../src/templates/plain';
import { truncate } from '../../src/templates/text-format';

const gb = createTemplateEngine({ dirs: [], timezone: 'Europe/Berlin', locale: 'en-GB' });
const de = createTemplateEngine({ dirs: [], timezone: 'Europe/Berlin', locale: 'de-DE' });
const us = createTemplateEngine({ dirs: [], timezone: 'America/Los_Angeles', locale: 'en-US' });

describe('date and datetime helpers', () => {
  it("format in the tenant's time zone: 23:30 UTC is already the next day in Berlin", () => {
    expect(gb.renderString('{{date at}}', { at: '2026-11-20T23:30:00Z' })).toBe('21 November 2026');
    expect(gb.renderString('{{datetime at}}', { at: '2026-11-20T23:30:00Z' })).toBe('21 Nov 2026, 00:30');
    expect(us.renderString('{{datetime at "short"}}', { at: '2026-11-20T23:30:00Z' })).toBe('11/20/26, 3:30 PM');
  });

  it("format in the tenant's locale and take a style", () => {
    expect(de.renderString('{{date at}}', { at: '2026-03-01T12:00:00+01:00' })).toBe('1. März 2026');
    expect(gb.renderString('{{date at "short"}}', { at: '2026-03-01T12:00:00+01:00' })).toBe('01/03/2026');
    const full = gb.renderString('{{date at "full"}}', { at: 1_772_362_800_000 });
    expect(full).toMatch(/^Sunday,? 1 March 2026$/);
  });

  it('show a calendar day (a birthday) as that day in every zone', () => {
    expect(us.renderString('{{date d}}', { d: '1990-05-17' })).toBe('May 17, 1990');
    expect(gb.renderString('{{datetime d}}', { d: '1990-05-17' })).toBe('17 May 1990');
  });

  it('show something that is not a date as it came', () => {
    expect(gb.renderString('[{{date x}}]', { x: 'soon' })).toBe('[soon]');
    expect(gb.renderString('[{{date x}}]', { x: null })).toBe('[]');
  });
});

describe('list helper', () => {
  it('joins with commas and "and" in the locale\'s way', () => {
    expect(gb.renderString('{{list names}}', { names: ['Ada', 'Grace', 'Linus'] })).toBe('Ada, Grace and Linus');
    expect(gb.renderString('{{list names}}', { names: ['Ada', 'Grace'] })).toBe('Ada and Grace');
    expect(gb.renderString('{{list names}}', { names: ['Ada'] })).toBe('Ada');
    expect(de.renderString('{{list names}}', { names: ['Ada', 'Grace', 'Linus'] })).toBe('Ada, Grace und Linus');
  });

  it('takes a field of each item', () => {
    expect(gb.renderString('{{list users "name"}}', { users: [{ name: 'Ada' }, { name: 'Grace' }] })).toBe('Ada and Grace');
    expect(gb.renderString('[{{list nothing}}]', { nothing: null })).toBe('[]');
  });
});

describe('plural helper', () => {
  it('says "1 year" and "5 years"', () => {
    expect(gb.renderString('{{plural n "year"}}', { n: 1 })).toBe('1 year');
    expect(gb.renderString('{{plural n "year"}}', { n: 5 })).toBe('5 years');
    expect(gb.renderString('{{plural n "year"}}', { n: 0 })).toBe('0 years');
  });

  it('takes a custom plural form and knows -y and -s endings', () => {
    expect(gb.renderString('{{plural n "person" "people"}}', { n: 3 })).toBe('3 people');
    expect(gb.renderString('{{plural n "person" "people"}}', { n: 1 })).toBe('1 person');
    expect(gb.renderString('{{plural 2 "entry"}} {{plural 2 "day"}} {{plural 2 "bus"}}', {})).toBe('2 entries 2 days 2 buses');
  });

  it('counts an array and groups digits by the locale', () => {
    expect(gb.renderString('{{plural alerts "alert"}}', { alerts: [1, 2] })).toBe('2 alerts');
    expect(gb.renderString('{{plural 12000 "user"}}', {})).toBe('12,000 users');
  });
});

describe('mention helper', () => {
  it('writes @Full Name from a user or a name', () => {
    expect(gb.renderString('{{mention user}}', { user: { id: 7, name: 'Ada Lovelace' } })).toBe('@Ada Lovelace');
    expect(gb.renderString('{{mention user}}', { user: { first_name: 'Ada', last_name: 'Lovelace' } })).toBe('@Ada Lovelace');
    expect(gb.renderString('{{mention "Grace Hopper"}}', {})).toBe('@Grace Hopper');
    expect(gb.renderString('[{{mention user}}]', { user: null })).toBe('[]');
  });
});

describe('truncate helper', () => {
  it('keeps short text and cuts long text to n characters ending in an ellipsis', () => {
    expect(gb.renderString('{{truncate t 10}}', { t: 'short' })).toBe('short');
    expect(gb.renderString('{{truncate t 10}}', { t: '0123456789' })).toBe('0123456789');
    expect(gb.renderString('{{truncate t 10}}', { t: '0123456789A' })).toBe('012345678…');
    expect(Array.from(truncate('Disk almost full on db-1', 10))).toHaveLength(10);
  });

  it('never splits an emoji', () => {
    expect(truncate('🔥🔥🔥🔥', 3)).toBe('🔥🔥…');
  });
});

describe('eq and ordinal helpers', () => {
  it('compares strictly', () => {
    expect(gb.renderString('{{#if (eq status "firing")}}F{{else}}R{{/if}}', { status: 'firing' })).toBe('F');
    expect(gb.renderString('{{#if (eq n 1)}}one{{else}}other{{/if}}', { n: '1' })).toBe('other');
  });

  it('writes 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 101st', () => {
    const out = gb.renderString('{{#each ns}}{{ordinal this}} {{/each}}', { ns: [1, 2, 3, 4, 11, 12, 13, 21, 22, 101] });
    expect(out.trim()).toBe('1st 2nd 3rd 4th 11th 12th 13th 21st 22nd 101st');
    expect(de.renderString('{{ordinal 3}}', {})).toBe('3.');
  });
});

describe('plain helper', () => {
  it('breaks @ mentions in untrusted text with a fullwidth at sign', () => {
    const text = 'CPU high on db-1, paging @Everyone and ops@example.com';
    const out = gb.renderString('{{plain description}}', { description: text });
    expect(out).not.toContain('@');
    expect(out).toBe(text.replaceAll('@', NEUTRAL_AT));
    expect(plain(undefined)).toBe('');
  });

  it('leaves a mention written by the template itself intact', () => {
    expect(gb.renderString('{{mention owner}}: {{plain text}}', { owner: 'Ada', text: '@Bob' })).toBe(`@Ada: ${NEUTRAL_AT}Bob`);
  });
});
