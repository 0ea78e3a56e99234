// Names written into a text report for a terminal: the one way every text-format report
// (validate, verify, impact, a refresh summary, a trace) prints a name from a file or a tenant —
// an identity's name, a file name, an attribute, an error message quoting a value — so that none
// can move the cursor, clear the screen (an ANSI escape starts with ESC, U+001B), end the line and
// forge one of its own (CR, LF, U+2028, U+2029), or reorder what follows (the bidirectional
// overrides of Unicode TR9, https://www.unicode.org/reports/tr9/). Each such character is shown
// as its JSON string escape (RFC 8259 section 7): `\n`, `\t`, `\u001b`. As markdown.ts is for the
// markdown format and workflow-commands.ts for the GitHub format.

/** C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional controls. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One line of a text report, every unsafe character shown as its JSON escape. */
export function terminalText(value: string): string {
  return value.replace(UNSAFE, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A text report from its lines: each made safe, joined by line breaks, ending with one. */
export function terminalLines(lines: readonly string[]): string {
  return lines.map(terminalText).join('\n') + '\n';
}

/**
 * A coded error's message as the command line reports it: one line, every unsafe character
 * escaped, a line break a quoted value carried included. A caret excerpt (`excerpt`, the message's
 * deliberate last lines: a filter's FILTER_SYNTAX, FILTER_LIMIT) keeps its own line breaks, its
 * lines made safe one by one.
 */
export function terminalMessage(message: string, excerpt?: string): string {
  if (excerpt === undefined || excerpt === '' || !message.endsWith(`\n${excerpt}`)) return terminalText(message);
  const head = message.slice(0, message.length - excerpt.length - 1);
  return [terminalText(head), ...excerpt.split('\n').map(terminalText)].join('\n');
}
