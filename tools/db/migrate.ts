// The command line of the migration runner (migrate/ in @dl/platform/db): `npm run db:migrate`,
// `npm run db:migration -- <name>`, `npm run db:status`, and the container's `migrate`.
//
//   node tools/scripts/run.js tools/db/migrate.ts deploy
//   node tools/scripts/run.js tools/db/migrate.ts dev --name <name> [--create-only] [--force]
//   node tools/scripts/run.js tools/db/migrate.ts status
import { parseArgs } from 'node:util';
import { describeMigrationError, migrateDeploy, migrateDev, migrateStatus } from '@dl/platform/db';

const usage = `usage: migrate.ts deploy | dev --name <name> [--create-only] [--force] | status`;

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set');
  const log = (line: string) => console.log(line);
  switch (command) {
    case 'deploy':
      await migrateDeploy(databaseUrl, { log });
      return 0;
    case 'dev': {
      const { values } = parseArgs({
        args: rest,
        options: { name: { type: 'string' }, 'create-only': { type: 'boolean' }, force: { type: 'boolean' } },
      });
      if (!values.name) throw new Error(`--name is required\n${usage}`);
      await migrateDev(databaseUrl, values.name, { createOnly: values['create-only'], force: values.force, log });
      return 0;
    }
    case 'status':
      return (await migrateStatus(databaseUrl, { log })) ? 0 : 1;
    default:
      throw new Error(usage);
  }
}

// The engine leaves timers behind: exit explicitly.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(describeMigrationError(error));
    process.exit(1);
  },
);
