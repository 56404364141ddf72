// The measnb command line.
import { Command } from 'commander';
import { registerEmulatorCommand } from './commands/emulator';

const program = new Command('measnb').description('Air-quality measurements from the terminal');
registerEmulatorCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`measnb: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
