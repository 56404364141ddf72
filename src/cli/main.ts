// The measnb command line.
import { Command, CommanderError } from 'commander';
import { registerArchiveCommand } from './commands/archive';
import { registerEmulatorCommand } from './commands/emulator';
import { registerExportCommand } from './commands/export';
import { registerFollowCommand } from './commands/follow';
import { registerQueryCommand } from './commands/query';
import { registerReportCommand } from './commands/report';
import { registerRunCommand } from './commands/run';
import { registerStatsCommand } from './commands/stats';
import { writeErrorLines } from './errors';
import { handleStdoutErrors } from './output/stdout';
import { keepWasmOnBaselineCompiler } from './v8-tuning';

keepWasmOnBaselineCompiler();

const program = new Command('measnb').description('Air-quality measurements from the terminal');
// Usage errors exit 2 (documented exit codes); set before the commands so they inherit it.
program.exitOverride();
// `measnb query ... | head` closes stdout early: a normal end; a full disk, or a closed pipe under
// follow --state, is a failure (output/stdout.ts).
handleStdoutErrors();
registerEmulatorCommand(program);
registerQueryCommand(program);
registerReportCommand(program);
registerFollowCommand(program);
registerRunCommand(program);
registerExportCommand(program);
registerStatsCommand(program);
registerArchiveCommand(program);

program
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof CommanderError) {
      // commander already printed the message (or the help).
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    writeErrorLines([err instanceof Error ? err.message : String(err)]);
    process.exitCode = 1;
  })
  .then(() => {
    // Long-running commands (emulator, follow) return only when done; idle keep-alive sockets must not delay the exit.
    if (process.stdout.writableLength === 0) process.exit();
    else process.stdout.once('drain', () => process.exit());
  });
