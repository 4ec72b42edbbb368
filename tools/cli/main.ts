/**
 * The operator CLI (decisions §2): `npm run cli -- <command> [args]`. Each command
 * prints one JSON object on stdout; errors go to stderr with a non-zero exit
 * (1: refused by the service, 2: bad usage).
 */
import 'reflect-metadata';
import { DomainError } from '@dl/platform/http';
import { ConfigError, loadConfig } from '@dl/platform/config';
import { parseArgs, UsageError } from './command';
import { COMMANDS } from './commands';
import { createIdentityContext } from './context';

function usage(): string {
  return ['usage: npm run cli -- <command> [args]', '', ...Object.values(COMMANDS).map((c) => `  ${c.usage}`)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stderr.write(`${usage()}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`Error: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  let args;
  try {
    args = parseArgs(rest, command.options);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\nusage: npm run cli -- ${command.usage}\n`);
    return 2;
  }
  let config;
  try {
    config = loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/deeplink', ...process.env, LOG_LEVEL: 'silent' });
  } catch (err) {
    process.stderr.write(`Error: ${err instanceof ConfigError ? err.message : String(err)}\n`);
    return 1;
  }
  const ctx = await createIdentityContext(config);
  try {
    const result = await command.run(ctx, args);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`Error: ${err.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 2;
    }
    if (err instanceof DomainError) {
      const details = err.options.validation
        ? ` (${Object.entries(err.options.validation).map(([k, v]) => `${k}: ${v}`).join('; ')})`
        : '';
      process.stderr.write(`Error: ${err.message}${details}\n`);
      return 1;
    }
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await ctx.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
