// GitHub Actions workflow commands (`::error file=…,line=…::message`), the one way this package
// writes them: every github-format report (validate, impact) and the GitHub Action build their
// annotations here, so that no value — a file name, an attribute or transform name, a message
// quoting user input — can end the line and start a command of its own (`::stop-commands::`,
// `::add-mask::`, a forged `::error`). The escaping is the runner's, as the toolkit writes it:
// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts and
// https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions

import { randomUUID } from 'node:crypto';

/** The annotation commands reports write. */
export type WorkflowAnnotation = 'error' | 'warning' | 'notice';

/** A command's message: `%`, CR and LF escaped, so that the command stays one line. */
export function escapeWorkflowData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value (`file=`, `title=`, …): the message's escapes, plus `:` and `,`, which end a value. */
export function escapeWorkflowProperty(value: string): string {
  return escapeWorkflowData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One workflow command line (without its newline): `::command key=value,…::message`, every
 * property value and the message escaped. Properties whose value is undefined are left out.
 */
export function workflowCommand(command: WorkflowAnnotation, properties: Readonly<Record<string, string | number | undefined>>, message: string): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeWorkflowProperty(String(value))}`)
    .join(',');
  return `::${command}${props === '' ? '' : ` ${props}`}::${escapeWorkflowData(message)}`;
}

/**
 * Text printed among workflow commands that must not be read as commands (a report quoting
 * names a tenant or a pull request chose): between `::stop-commands::<token>` and `::<token>::`
 * the runner executes nothing, as GitHub documents for untrusted output. The token is random for
 * each call, so that the text cannot end the block itself; text holding the token (it cannot, but
 * a caller may pass one) is refused.
 */
export function inertWorkflowText(text: string, token: string = randomUUID()): string {
  if (text === '') return '';
  if (text.includes(token)) throw new RangeError('the text holds the stop-commands token');
  return `::stop-commands::${token}\n${text}${text.endsWith('\n') ? '' : '\n'}::${token}::\n`;
}
