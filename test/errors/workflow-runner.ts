// What GitHub's runner would execute of a step's output, for tests of workflow-command output.

/**
 * The commands a runner would execute in `output`: lines whose trimmed start is `::`, outside
 * `::stop-commands::<token>` … `::<token>::`, as the runner's ActionCommandManager processes them.
 */
export function executedCommands(output: string): string[] {
  const executed: string[] = [];
  let stopToken: string | null = null;
  for (const raw of output.split(/\r?\n/)) {
    const line = raw.trimStart();
    if (stopToken !== null) {
      if (line === `::${stopToken}::`) stopToken = null;
      continue;
    }
    if (!line.startsWith('::')) continue;
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) stopToken = stop[1]!;
    else executed.push(line);
  }
  return executed;
}
