// Names from files and tenants in a text report (src/errors/terminal.ts): no character of a name
// reaches the terminal as a control — an escape sequence, a line break, a bidirectional override
// — each is shown as its JSON string escape.

import { describe, expect, it } from 'vitest';
import { terminalLines, terminalMessage, terminalText } from '../../src/errors/terminal.js';

describe('terminalText', () => {
  it.each([
    ['\u001b[2J', '\\u001b[2J'],
    ['ada\nverify forged line', 'ada\\nverify forged line'],
    ['a\r\tb\b\f', 'a\\r\\tb\\b\\f'],
    ['\u0000\u007f\u009b', '\\u0000\\u007f\\u009b'],
    ['x\u2028y\u2029z', 'x\\u2028y\\u2029z'],
    ['admin\u202e\u2066', 'admin\\u202e\\u2066'],
  ])('shows %j as %j', (name, shown) => {
    expect(terminalText(name)).toBe(shown);
  });

  it('leaves printable text, backslashes and non-Latin names as they are', () => {
    expect(terminalText('Zoë Ödegård 山田 CN=Doe\\, John')).toBe('Zoë Ödegård 山田 CN=Doe\\, John');
  });
});

describe('terminalLines', () => {
  it('joins the lines, one line each however the names inside them break', () => {
    expect(terminalLines(['a\nb', 'c'])).toBe('a\\nb\nc\n');
  });
});

describe('terminalMessage', () => {
  it('reports a message on one line, a line break or an escape sequence a quoted value carried escaped', () => {
    expect(terminalMessage('identity 1 has the id "\u001b]0;pwned\u0007\nCLI_OK done" of identity 0')).toBe('identity 1 has the id "\\u001b]0;pwned\\u0007\\nCLI_OK done" of identity 0');
  });

  it('keeps the lines of a caret excerpt, each made safe', () => {
    const excerpt = 'name eq "\\u001b[2J" AND\n                    ^';
    expect(terminalMessage(`unexpected 'AND' in "\u001b[2J"\n at position 15\n${excerpt}`, excerpt)).toBe(`unexpected 'AND' in "\\u001b[2J"\\n at position 15\n${excerpt}`);
  });

  it('escapes every line break when the excerpt named is not the message\'s end', () => {
    expect(terminalMessage('a\nb\n^', 'c\n^')).toBe('a\\nb\\n^');
  });
});
