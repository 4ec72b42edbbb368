/**
 * The operator CLI's commands run in-process: `main.ts` calls this with the process's arguments,
 * environment and streams; a medium spec calls it with its own.
 */
import { DomainError } from '@dl/platform/http';
import { ConfigError, loadConfig } from '@dl/platform/config';
import { parseArgs, UsageError } from './command';
import { COMMANDS } from './commands';
import { createIdentityContext } from './context';

/** Where a command writes (process.stdout and process.stderr, or a test's buffers). */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

function usage(): string {
  return ['usage: npm run cli -- <command> [args]', '', ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join('\n');
}

/**
 * Runs one command and answers its exit code (0 done, 1 refused by the service, 2 bad usage).
 * `env` is the environment its configuration is read from.
 */
export async function runCommand(argv: string[], env: Record<string, string | undefined>, out: CliOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    out.stderr(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    out.stderr(`Error: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  let args;
  try {
    args = parseArgs(rest, command.options);
  } catch (err) {
    out.stderr(`Error: ${(err as Error).message}\nusage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/deeplink', ...env, LOG_LEVEL: 'silent' });
  } catch (err) {
    out.stderr(`Error: ${err instanceof ConfigError ? err.message : String(err)}\n`);
    return 1;
  }
  const ctx = await createIdentityContext(config);
  try {
    const result = await command.run(ctx, args);
    out.stdout(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      out.stderr(`Error: ${err.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 2;
    }
    if (err instanceof DomainError) {
      const details = err.options.validation
        ? ` (${Object.entries(err.options.validation).map(([k, v]) => `${k}: ${v}`).join('; ')})`
        : '';
      out.stderr(`Error: ${err.message}${details}\n`);
      return 1;
    }
    out.stderr(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await ctx.close();
  }
}
