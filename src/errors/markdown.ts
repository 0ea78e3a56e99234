// Values written into a Markdown report (GitHub Flavored Markdown, https://github.github.com/gfm/):
// the one way every markdown-format report (validate, impact, verify) quotes a name or a value,
// so that none — an identity's name, an attribute or transform name from a pull request, a value
// the tenant stored — can end a table row, close a <details> block, open a tag of its own
// (`<img src=…>` in a job summary) or end a code fence. As workflow-commands.ts is for the
// GitHub format.

/** Text inside HTML: &, < and > would open entities and tags. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Text for a table cell, a heading, a list item or a <summary>: HTML escaped, a pipe escaped (it
 * would end the cell, GFM "Tables"), a backslash doubled (it would escape the next character),
 * and a line break as a space (it would end the row, the heading or the item).
 */
export function markdownText(value: string): string {
  return escapeHtml(value)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}

/**
 * A value as inline code, in a table cell or in HTML alike: <code> rather than backticks (a
 * backtick in the value would end a code span), HTML escaped, a pipe as &#124; (a table splits its
 * row at a pipe even inside a tag) and a line break as its character reference (a blank line would
 * end an HTML block).
 */
export function markdownCode(value: string): string {
  return `<code>${escapeHtml(value).replace(/\|/g, '&#124;').replace(/\r/g, '&#13;').replace(/\n/g, '&#10;')}</code>`;
}

/**
 * A fenced code block holding `text` verbatim: its fence is a run of backticks longer than any in
 * the text (GFM "Fenced code blocks": the block ends only at a fence at least as long).
 */
export function markdownFence(text: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [fence, text, fence];
}
