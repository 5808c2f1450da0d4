import { describe, expect, it } from 'vitest';
import { markdownToText } from '../../src/templates/markdown-text';

describe('markdownToText', () => {
  it('turns ATX and setext headings into marked lines with a blank line before', () => {
    expect(markdownToText("# v2.0\nIntro\n## What's new ##\nText\n\nOther\n-----")).toBe("■ v2.0\nIntro\n\n■ What's new\nText\n\n■ Other");
  });

  it('turns list items into bullets, nested ones indented, numbers and task boxes kept readable', () => {
    expect(markdownToText('- one\n  * two\n    + three\n1. first\n2) second\n- [ ] todo\n- [x] done')).toBe(
      '• one\n  • two\n    • three\n1. first\n2. second\n☐ todo\n☑ done',
    );
  });

  it('writes links as text and address, and an address given as its own label once', () => {
    expect(markdownToText('See [the docs](https://example.com/docs "Docs") and <https://example.com> or [https://x.io](https://x.io)')).toBe(
      'See the docs (https://example.com/docs) and https://example.com or https://x.io',
    );
  });

  it('resolves reference links and leaves their definitions out', () => {
    expect(markdownToText('Read [the guide][g] and [Spec][].\n\n[g]: https://example.com/guide\n[spec]: <https://example.com/spec> "Spec"')).toBe(
      'Read the guide (https://example.com/guide) and Spec (https://example.com/spec).',
    );
  });

  it('indents fenced and indented code, keeping its text untouched', () => {
    expect(markdownToText('Run:\n```sh\nnpm i **not bold** [x](y)\n```\nor\n\n    make all')).toBe('Run:\n    npm i **not bold** [x](y)\nor\n\n    make all');
  });

  it('drops emphasis and inline-code ticks but not the underscores inside words', () => {
    expect(markdownToText('**Bold**, __strong__, *it*, _em_, ~~gone~~, `a_b*c*`, snake_case_name and 2 * 3 * 4')).toBe(
      'Bold, strong, it, em, gone, a_b*c*, snake_case_name and 2 * 3 * 4',
    );
  });

  it('drops HTML tags and comments, breaking lines at <br>', () => {
    expect(markdownToText('<details><summary>More</summary>\nHidden<br>text\n</details>\n<!-- a\ncomment -->done')).toBe('More\nHidden\ntext\n\ndone');
  });

  it('writes images as their alt text and address, quotes with a bar, rules as a line, tables as rows', () => {
    expect(markdownToText('![Screenshot](https://example.com/s.png)\n> quoted **text**\n***\n| a | b |\n|---|:-:|\n| 1 | 2 |')).toBe(
      'Screenshot (https://example.com/s.png)\n│ quoted text\n──────────\na | b\n1 | 2',
    );
  });

  it('keeps mentions and backslash-escaped characters as text', () => {
    expect(markdownToText('Thanks @mona for \\*this\\* and \\#12')).toBe('Thanks @mona for *this* and #12');
  });

  it('collapses runs of blank lines and trims the ends', () => {
    expect(markdownToText('\n\na\n\n\n\nb\r\n\r\n')).toBe('a\n\nb');
  });
});
