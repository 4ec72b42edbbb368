import { withTimeout } from '@dl/platform/async';
import { feedsReloadChannel, loadFeeds, parseFeedPaths, ResolveAction } from '@dl/safety';
import { Command, ParsedArgs, UsageError } from './command';

function args1(args: ParsedArgs, names: string[]): string[] {
  if (args.positional.length !== names.length) throw new UsageError(`Expected ${names.map((n) => `<${n}>`).join(' ') || 'no arguments'}`);
  return args.positional;
}

const ACTIONS: ResolveAction[] = ['dismiss', 'block-link', 'suspend-org'];

/** The abuse desk of decisions §22: reports, suspensions, threat feeds. */
export const SAFETY_COMMANDS: Record<string, Command> = {
  'abuse:list': {
    usage: 'abuse:list [--status open|dismissed|link-blocked|org-suspended]',
    options: ['status'],
    async run(ctx, args) {
      args1(args, []);
      const reports = await ctx.abuse.list(args.flags.status);
      return { reports: reports.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null })) };
    },
  },
  'abuse:resolve': {
    usage: 'abuse:resolve <id> --action dismiss|block-link|suspend-org [--note <text>]',
    options: ['action', 'note'],
    async run(ctx, args) {
      const [id] = args1(args, ['id']);
      const action = args.flags.action as ResolveAction;
      if (!ACTIONS.includes(action)) throw new UsageError(`--action must be one of ${ACTIONS.join(', ')}`);
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError('<id> must be a report id (UUID)');
      const report = await ctx.abuse.resolve(id, action, args.flags.note ?? null);
      if (!report) throw new UsageError(`No report ${id}`);
      return { id: report.id, status: report.status, linkId: report.linkId, organizationId: report.organizationId };
    },
  },
  'org:suspend': {
    usage: 'org:suspend <org> --reason <text>',
    options: ['reason'],
    async run(ctx, args) {
      const [ref] = args1(args, ['org']);
      const reason = args.flags.reason?.trim();
      if (!reason) throw new UsageError('Missing --reason');
      const org = await ctx.accounts.findOrganization(ref);
      const done = await ctx.suspensions.suspend(org.id, reason);
      return { organization: { id: org.id, slug: org.slug, suspendedAt: done?.suspendedAt?.toISOString() ?? null, reason } };
    },
  },
  'org:unsuspend': {
    usage: 'org:unsuspend <org>',
    options: [],
    async run(ctx, args) {
      const [ref] = args1(args, ['org']);
      const org = await ctx.accounts.findOrganization(ref);
      await ctx.suspensions.unsuspend(org.id);
      return { organization: { id: org.id, slug: org.slug, suspendedAt: null } };
    },
  },
  'threats:reload': {
    usage: 'threats:reload',
    options: [],
    /**
     * Reads THREAT_FEEDS as the apps do and reports each file (entries, malformed lines, errors),
     * then tells every running process that screens to reload its feeds now (decisions §22):
     * `notified` is how many heard it, null when Redis could not be reached (the processes still
     * pick a changed file up within THREAT_FEEDS_POLL_MS).
     */
    async run(ctx, args) {
      args1(args, []);
      const snapshot = await loadFeeds(parseFeedPaths(ctx.config.THREAT_FEEDS));
      const notified = await withTimeout(ctx.redis.client.publish(feedsReloadChannel(ctx.redis), 'reload'), 2000).catch(() => null);
      return { entries: snapshot.matcher.size, files: snapshot.files, notified };
    },
  },
};
