// Quoting values into Markdown reports (src/errors/markdown.ts): what each helper turns a hostile
// value into, for the renderer GitHub uses (GFM).

import { describe, expect, it } from 'vitest';
import { escapeHtml, markdownCode, markdownFence, markdownText } from '../../src/errors/markdown.js';

describe('markdown quoting', () => {
  it.each([
    ['a|b', 'a\\|b'],
    ['a\\|b', 'a\\\\\\|b'],
    ['line\nnext\r\nthird\rfourth\u2028fifth', 'line next third fourth fifth'],
    ['</details><img src=x>', '&lt;/details&gt;&lt;img src=x&gt;'],
    ['&amp;', '&amp;amp;'],
  ])('markdownText(%j) is %j: one cell, no tag, no entity', (value, expected) => {
    expect(markdownText(value)).toBe(expected);
  });

  it.each([
    ['a`b', '<code>a`b</code>'],
    ['a|b', '<code>a&#124;b</code>'],
    ['a\n\n<b>', '<code>a&#10;&#10;&lt;b&gt;</code>'],
  ])('markdownCode(%j) is %j: a code element no backtick, pipe or blank line ends', (value, expected) => {
    expect(markdownCode(value)).toBe(expected);
  });

  it('escapes the three characters that start HTML markup', () => {
    expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href="x"&gt;&amp;&lt;/a&gt;');
  });

  it.each([
    ['plain', '```'],
    ['```\n</details>', '````'],
    ['a ````` b', '``````'],
  ])('fences %j with %s, longer than any run of backticks inside', (text, fence) => {
    expect(markdownFence(text)).toEqual([fence, text, fence]);
  });
});
