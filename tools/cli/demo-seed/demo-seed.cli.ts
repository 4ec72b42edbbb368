import { Command, UsageError } from '../command';
import { createSeedContext, demoSeed } from './demo-seed.command';

function intFlag(flags: Record<string, string>, name: string, fallback: number, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer between ${min} and ${max}`);
  return n;
}

/** `demo:seed <org> [--months N] [--links N] [--clicks-per-day N]` (decisions §2). */
export const demoSeedCommand: Command = {
  usage: 'demo:seed <org> [--months N (1-36, default 3)] [--links N (1-1000, default 25)] [--clicks-per-day N (0-50000, default 500)]',
  options: ['months', 'links', 'clicks-per-day'],
  async run(ctx, args) {
    if (args.positional.length !== 1) throw new UsageError(args.positional.length ? `Unexpected argument "${args.positional[1]}"` : 'Missing <org>');
    const months = intFlag(args.flags, 'months', 3, 1, 36);
    const links = intFlag(args.flags, 'links', 25, 1, 1000);
    const clicksPerDay = intFlag(args.flags, 'clicks-per-day', 500, 0, 50_000);
    const org = await ctx.accounts.findOrganization(args.positional[0]);
    // The seeding context needs the queue and click pipeline too, on the configuration the CLI entry validated.
    const seed = await createSeedContext(ctx.config);
    try {
      return await demoSeed(seed.prisma, seed.pipeline, { organizationId: org.id, months, links, clicksPerDay });
    } finally {
      await seed.app.close();
    }
  },
};
