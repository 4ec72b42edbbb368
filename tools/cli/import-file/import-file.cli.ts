import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthModule, MembersService, Principal } from '@dl/auth';
import { CONFLICT_STRATEGIES, ImportResultDto, LinksImportService, LinksModule, readCsv } from '@dl/links';
import { AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';
import { PlatformModule } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';
import { Command, UsageError } from '../command';
import { ProgressBar } from '../demo-seed/progress';

const USAGE =
  'import:file <org> <file> [--platform auto|bitly|rebrandly|shortio|dub|shlink|kutt|yourls|firebase|branch (default auto)] [--domain <d>] [--template <id|slug>] [--project <id>] [--conflict skip|overwrite|rename] [--as <member email>]';

/** The links services outside any HTTP server, so the CLI imports through the same rules as the api. */
async function createImportContext(config: AppConfig): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformModule.forRoot(config), QueueModule, AuthModule, LinksModule] })
  class ImportFileModule {}
  const app = await NestFactory.createApplicationContext(ImportFileModule, { logger: false, abortOnError: false });
  await app.init();
  return app;
}

/** `--as` a member, else the organization's first owner: the links' creator and the role the import runs with. */
async function principalFor(members: MembersService, organization: { id: string; tier: Principal['tier'] }, asEmail?: string): Promise<Principal> {
  const listing: Principal = { kind: 'session', userId: '', organizationId: organization.id, role: Role.OWNER, tier: organization.tier };
  const member = asEmail ? await members.findByEmail(organization.id, asEmail) : (await members.list(listing)).members.find((m) => m.role === Role.OWNER);
  if (!member) throw new UsageError('The organization has no owner: pass --as <member email>');
  return { kind: 'session', userId: member.userId, organizationId: organization.id, role: member.role, tier: organization.tier };
}

/** One line per outcome count, then the first failed or skipped rows, on stderr (stdout keeps the JSON). */
export function summaryOf(result: ImportResultDto, shown = 10): string {
  const lines = [`imported ${result.imported}, skipped ${result.skipped}, failed ${result.failed}`];
  for (const e of result.errors.slice(0, shown)) lines.push(`  row ${e.row}: ${e.message}`);
  if (result.errors.length > shown) lines.push(`  … ${result.errors.length - shown} more in the JSON on stdout`);
  return `${lines.join('\n')}\n`;
}

/** `import:file <org> <file>` (decisions §26): the API's import from a file on disk, with a progress bar. */
export const importFileCommand: Command = {
  usage: USAGE,
  options: ['platform', 'domain', 'template', 'project', 'conflict', 'as'],
  async run(ctx, args) {
    if (args.positional.length < 2) throw new UsageError(args.positional.length ? 'Missing <file>' : 'Missing <org> <file>');
    if (args.positional.length > 2) throw new UsageError(`Unexpected argument "${args.positional[2]}"`);
    const [ref, file] = args.positional;
    const f = args.flags;
    if (f.conflict !== undefined && !(CONFLICT_STRATEGIES as readonly string[]).includes(f.conflict)) throw new UsageError('--conflict must be skip, overwrite or rename');
    const size = await stat(file).then((s) => (s.isFile() ? s.size : null), () => null);
    if (size === null) throw new UsageError(`Cannot read ${file}`);
    const organization = await ctx.accounts.findOrganization(ref);
    const app = await createImportContext(ctx.config);
    try {
      const importer = app.get(LinksImportService);
      const principal = await principalFor(ctx.members, organization, f.as);
      const table = await readCsv(createReadStream(file));
      const form = {
        platform: f.platform ?? 'auto',
        templateId: await importer.templateIdFor(organization.id, f.template),
        ...(f.project === undefined ? {} : { projectId: f.project }),
        ...(f.conflict === undefined ? {} : { conflictStrategy: f.conflict }),
        ...(f.domain === undefined ? {} : { domain: f.domain }),
      };
      const bars = { check: new ProgressBar(table.rows.length, 'checking'), write: null as ProgressBar | null };
      const result = await importer.import(principal, importer.parseOptions(form), table, (p) => {
        if (p.phase === 'check') return bars.check.update(p.done);
        if (!bars.write) {
          bars.check.done(`${table.rows.length.toLocaleString('en-US')} rows`);
          bars.write = new ProgressBar(p.total, 'writing ');
        }
        bars.write.update(p.done);
      });
      if (bars.write) bars.write.done('');
      else bars.check.done(`${table.rows.length.toLocaleString('en-US')} rows`);
      process.stderr.write(summaryOf(result));
      return result;
    } finally {
      await app.close();
    }
  },
};
