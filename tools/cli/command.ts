// The contract between the CLI entry (main.ts) and each command (commands.ts, demo-seed/):
// kept apart from the command table so a command module never imports the table that lists it.
import { IdentityContext } from './context';

/** A usage or input error: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  flags: Record<string, string>;
}

/** `a b --x 1 --y=2` → positional [a, b], flags {x: '1', y: '2'}; refuses flags not in `allowed`. */
export function parseArgs(argv: string[], allowed: string[]): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!allowed.includes(name)) throw new UsageError(`Unknown option --${name}`);
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`Option --${name} needs a value`);
    flags[name] = value;
  }
  return { positional, flags };
}

export interface Command {
  usage: string;
  options: string[];
  run(ctx: IdentityContext, args: ParsedArgs): Promise<unknown>;
}
