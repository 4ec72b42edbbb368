import { useState } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, authHeaders, unwrap } from '../api/client';
import type { components, operations } from '../api/schema';
import { useExport } from '../components/download';
import { fmtDateTime } from '../components/format';
import { ResourceTable } from '../components/resource';
import { ErrorBanner, Field, fieldErrors, PageHeader, SelectField } from '../components/ui';

type Entry = components['schemas']['AuditEntryDto'];
type Query = NonNullable<operations['AuditLogController_list']['parameters']['query']>;
type Action = NonNullable<Query['action']>;

/** The actions the filter offers, grouped by what they touch (the API's registry lists them all). */
const ACTIONS: Action[] = [
  'link.created',
  'link.updated',
  'link.deleted',
  'project.created',
  'project.updated',
  'project.deleted',
  'api_key.created',
  'api_key.updated',
  'api_key.revoked',
  'member.invited',
  'invitation.accepted',
  'invitation.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'sso.updated',
  'scim_token.created',
  'scim.user_provisioned',
  'scim.user_deprovisioned',
];

const ACTION_CHOICES: ReadonlyArray<readonly [Action | '', string]> = [['', 'All actions'], ...ACTIONS.map((a) => [a, a] as const)];

/** `YYYY-MM-DD` of a date input → the start (or end) of that day in the viewer's zone, as ISO. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const d = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function actorLabel(e: Entry): string {
  if (e.actor.type === 'system') return 'System';
  const kind = e.actor.type === 'apiKey' ? 'API key' : 'User';
  return `${kind}: ${e.actor.name ?? e.actor.id ?? 'unknown'}`;
}

/** One line per changed field: `name: value`, a `{from, to}` pair as `from → to`. */
function changeLines(changes: Entry['changes']): Array<[string, string]> {
  if (!changes) return [];
  const text = (v: unknown): string => {
    if (v === null || v === undefined) return '—';
    if (Array.isArray(v)) return v.map(text).join(', ');
    if (typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ('from' in o && 'to' in o) return `${text(o.from)} → ${text(o.to)}`;
      return JSON.stringify(v);
    }
    return String(v);
  };
  return Object.entries(changes).map(([k, v]) => [k, text(v)]);
}

export default function AuditLogPage() {
  const [action, setAction] = useState<Action | ''>('');
  const [actorId, setActorId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const query: Query = { action: action || undefined, actorId: actorId.trim() || undefined, from: dayBound(from, false), to: dayBound(to, true), limit: 50 };
  const entries = useInfiniteQuery({
    queryKey: ['audit-log', query],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const res = await api.GET('/api/audit-log', { params: { query: { ...query, cursor: pageParam } } });
      const data = await unwrap(Promise.resolve(res));
      return { entries: data.entries, next: res.response.headers.get('x-next-cursor') ?? undefined };
    },
    getNextPageParam: (last) => last.next,
  });
  const verify = useQuery({ queryKey: ['audit-log-verify'], queryFn: () => unwrap(api.GET('/api/audit-log/verify')), enabled: false });
  const exported = useExport();
  const errors = fieldErrors(entries.error);
  const items = entries.data?.pages.flatMap((p) => p.entries);

  const exportCsv = () =>
    exported.run('audit-log.csv', async () => {
      const params = new URLSearchParams(Object.entries(query).filter(([k, v]) => v !== undefined && k !== 'limit') as Array<[string, string]>);
      const res = await fetch(`/api/audit-log/export?${params}`, { headers: await authHeaders() });
      if (!res.ok) throw new Error(`Export failed (${res.status})`);
      return res.blob();
    });

  return (
    <section className="page">
      <PageHeader title="Audit log">
        <button type="button" className="button" onClick={() => void verify.refetch()} disabled={verify.isFetching}>
          Verify integrity
        </button>
        <button type="button" className="button primary" onClick={() => void exportCsv()}>
          Export CSV
        </button>
      </PageHeader>
      {verify.data && (
        <p role="status" className={verify.data.valid ? 'hint' : 'field-error'} data-testid="audit-verify">
          {verify.data.valid
            ? `${verify.data.entries === 1 ? 'The 1 entry is' : `All ${verify.data.entries} entries are`} intact: each one hashes as recorded and links to the one before it.`
            : `The log was altered: entry ${verify.data.firstBrokenId} does not match its recorded hash or link.`}
        </p>
      )}
      <div className="card form audit-filters">
        <div className="form-row">
          <SelectField label="Action" error={errors.action} value={action} onChange={setAction} options={ACTION_CHOICES} />
          <Field label="Actor id" error={errors.actorId}>
            {(p) => <input {...p} value={actorId} onChange={(e) => setActorId(e.target.value)} placeholder="User or API key id" />}
          </Field>
          <Field label="From" error={errors.from}>
            {(p) => <input {...p} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />}
          </Field>
          <Field label="To" error={errors.to}>
            {(p) => <input {...p} type="date" value={to} onChange={(e) => setTo(e.target.value)} />}
          </Field>
        </div>
      </div>
      <ErrorBanner error={entries.error ?? verify.error ?? exported.error} />
      <ResourceTable
        loading={entries.isPending}
        items={items}
        label="Audit entries"
        testId="audit-entries"
        empty={{ title: 'No entries', body: 'Changes to links, keys, members and settings appear here as they happen.' }}
        head={['When', 'Actor', 'Action', 'Target', 'Changes', 'From']}
      >
        {(e) => (
          <tr key={e.id}>
            <td className="nowrap">{fmtDateTime(e.createdAt)}</td>
            <td>{actorLabel(e)}</td>
            <td>
              <code>{e.action}</code>
            </td>
            <td>
              {e.targetType}
              {e.targetId && (
                <div className="muted audit-id" title={e.targetId}>
                  {e.targetId}
                </div>
              )}
            </td>
            <td className="audit-changes">
              {changeLines(e.changes).map(([k, v]) => (
                <div key={k}>
                  <span className="muted">{k}:</span> {v}
                </div>
              ))}
            </td>
            <td>
              {e.ip ?? '—'}
              {e.userAgent && (
                <div className="muted audit-ua" title={e.userAgent}>
                  {e.userAgent}
                </div>
              )}
            </td>
          </tr>
        )}
      </ResourceTable>
      {entries.hasNextPage && (
        <button type="button" className="button" onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
          Load more
        </button>
      )}
    </section>
  );
}
