/**
 * The operator CLI (decisions §2): `npm run cli -- <command> [args]`. Each command
 * prints one JSON object on stdout; errors go to stderr with a non-zero exit
 * (1: refused by the service, 2: bad usage).
 */
import 'reflect-metadata';
import { runCommand } from './run';

runCommand(process.argv.slice(2), process.env, { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) }).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
