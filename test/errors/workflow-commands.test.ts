// Workflow commands as GitHub's runner reads them: one line each, every value escaped the way
// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts escapes it, and text
// between stop-commands markers never read as a command.

import { describe, expect, it } from 'vitest';
import { executedCommands } from './workflow-runner.js';
import { escapeWorkflowData, escapeWorkflowProperty, inertWorkflowText, workflowCommand } from '../../src/errors/workflow-commands.js';

describe('escaping as the toolkit does', () => {
  it.each([
    ['100%', '100%25'],
    ['a\nb', 'a%0Ab'],
    ['a\r\nb', 'a%0D%0Ab'],
    ['%0A stays literal', '%250A stays literal'],
    ['a: b, c', 'a: b, c'],
  ])('data %j → %j', (value, escaped) => {
    expect(escapeWorkflowData(value)).toBe(escaped);
  });

  it.each([
    ['transforms/a.json', 'transforms/a.json'],
    ['a: b, c', 'a%3A b%2C c'],
    ['x\n::error::y', 'x%0A%3A%3Aerror%3A%3Ay'],
  ])('property %j → %j', (value, escaped) => {
    expect(escapeWorkflowProperty(value)).toBe(escaped);
  });
});

describe('workflowCommand', () => {
  it('writes ::command key=value,…::message with the values escaped and undefined properties left out', () => {
    expect(workflowCommand('error', { file: 'a,b.json', line: 3, col: undefined, title: 'T:1' }, 'bad\nvalue')).toBe('::error file=a%2Cb.json,line=3,title=T%3A1::bad%0Avalue');
    expect(workflowCommand('notice', {}, 'plain')).toBe('::notice::plain');
  });

  it('keeps a name forging commands inside its one annotation', () => {
    const name = 'Region\n::stop-commands::x\n::error file=evil.json::forged\r\n::add-mask::secret';
    const line = workflowCommand('warning', { file: 'transforms/region.json', title: `impact of changed transform ${name}` }, `changes \`${name}\``);
    expect(line).not.toMatch(/[\r\n]/);
    expect(executedCommands(line)).toEqual([line]);
  });
});

describe('inertWorkflowText', () => {
  it('fences the text between stop-commands markers with a fresh token, so no line of it runs', () => {
    const text = 'report for Region\n::error::forged\n  ::add-mask::secret\n';
    const fenced = inertWorkflowText(text);
    expect(executedCommands(fenced)).toEqual([]);
    expect(fenced).toContain(text);
    expect(inertWorkflowText(text)).not.toBe(fenced);
  });

  it('cannot be closed by the text: a text holding the token is refused', () => {
    expect(() => inertWorkflowText('x ::tok:: y', 'tok')).toThrow(RangeError);
    expect(inertWorkflowText('')).toBe('');
  });
});
