import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import { fmtNumber } from '../components/format';
import { FirstRunChecklist } from '../components/first-run-checklist';
import { ConfirmDialog, Empty, ErrorBanner, Loading, namedOptions, PageHeader, Select } from '../components/ui';
import { useToast } from '../components/toasts';
import { LinkFilters } from './links-filters';
import { VirtualRows } from './links-rows';

type ListQuery = paths['/api/links']['get']['parameters']['query'];
const PAGE_SIZE = 1000;

/** The value once it has stopped changing for `ms` (a search box asks the server once per pause, not per key). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

type SortKey = 'createdAt' | 'clickCount' | 'title' | 'shortCode';
const BULK_MAX = 100;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export default function LinksPage() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const projectId = params.get('project') ?? '';
  const template = params.get('template') ?? '';
  const tag = params.get('tag') ?? '';
  const domain = params.get('domain') ?? '';
  const active = params.get('active') ?? '';
  const sort = (params.get('sort') as SortKey | null) ?? 'createdAt';
  const dir = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const deferredSearch = useDebounced(search.trim(), 250);
  // From the URL as it is now, not as this render saw it: two changes in a row (clear one
  // filter, pick another) must not each start from the same old URL and undo each other.
  const setParam = (key: string, value: string, more: Record<string, string> = {}) => {
    const next = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries({ [key]: value, ...more })) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };

  // The server filters (search, tag, project, domain, active) and answers pages of 1,000 in
  // its own order; the pages after the first load on their own, so the list shows at once and
  // a sort over the whole list is right as soon as the last page is in.
  const filters = { search: deferredSearch, tag, projectId, domain, active };
  const links = useInfiniteQuery({
    queryKey: ['links', filters],
    initialPageParam: '',
    queryFn: async ({ pageParam }) => {
      const query: NonNullable<ListQuery> = { limit: PAGE_SIZE };
      if (pageParam) query.cursor = pageParam;
      if (filters.search) query.search = filters.search;
      if (filters.tag) query.tag = [filters.tag];
      if (filters.projectId) query.projectId = filters.projectId;
      if (filters.domain) query.domain = filters.domain;
      if (filters.active) query.isActive = filters.active === 'true';
      const answer = await api.GET('/api/links', { params: { query } });
      const items = await unwrap(Promise.resolve(answer));
      return { items, next: answer.response.headers.get('X-Next-Cursor') };
    },
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = links;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const loaded = useMemo(() => links.data?.pages.flatMap((p) => p.items) ?? [], [links.data]);
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/projects')) });
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.GET('/api/templates')) });
  const tags = useQuery({ queryKey: ['tags'], queryFn: () => unwrap(api.GET('/api/tags')) });
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => unwrap(api.GET('/api/domains')) });
  const filtered = Boolean(deferredSearch || tag || projectId || domain || active || template);

  const rows = useMemo(() => {
    const list = template ? loaded.filter((l) => l.templateSlug === template) : loaded;
    const sign = dir === 'asc' ? 1 : -1;
    const key = sort;
    return [...list].sort((a, b) => {
      const x = key === 'title' ? (a.title ?? '') : a[key];
      const y = key === 'title' ? (b.title ?? '') : b[key];
      return (x < y ? -1 : x > y ? 1 : 0) * sign;
    });
  }, [loaded, template, sort, dir]);

  const [selected, setSelected] = useState<Set<string>>(new Set());
  // Computed once per change of the list or the selection, not on every scroll frame.
  const visibleSelected = useMemo(() => (selected.size ? rows.filter((r) => selected.has(r.id)) : []), [rows, selected]);
  const allSelected = rows.length > 0 && visibleSelected.length === rows.length;
  const toggle = useCallback(
    (id: string) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  const toast = useToast();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [moveTo, setMoveTo] = useState('');
  const bulk = useMutation({
    mutationFn: async (action: { kind: 'delete' } | { kind: 'active'; value: boolean } | { kind: 'project'; projectId: string | null }) => {
      const ids = visibleSelected.map((r) => r.id);
      let done = 0;
      for (const part of chunks(ids, BULK_MAX)) {
        if (action.kind === 'delete') {
          done += (await unwrap(api.POST('/api/links/bulk-delete', { body: { ids: part } }))).deleted;
        } else {
          const data = action.kind === 'active' ? { isActive: action.value } : { projectId: action.projectId };
          done += (await unwrap(api.POST('/api/links/bulk-update', { body: { updates: part.map((id) => ({ id, data })) } }))).updated;
        }
      }
      return { action, done };
    },
    onSuccess: ({ action, done }) => {
      const verb = action.kind === 'delete' ? 'Deleted' : action.kind === 'active' ? (action.value ? 'Activated' : 'Deactivated') : 'Moved';
      toast(`${verb} ${fmtNumber(done)} link${done === 1 ? '' : 's'}`);
      setSelected(new Set());
      setConfirming(false);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['links'] }),
  });

  const sortHeader = (key: SortKey, label: string) => {
    const active = sort === key;
    return (
      <button
        type="button"
        className={active ? 'sort active' : 'sort'}
        aria-label={`Sort by ${label}`}
        onClick={() => {
          if (active) setParam('dir', dir === 'asc' ? '' : 'asc');
          else {
            setParam('sort', key === 'createdAt' ? '' : key, { dir: '' });
          }
        }}
      >
        {label} {active ? (dir === 'asc' ? '▲' : '▼') : ''}
      </button>
    );
  };

  return (
    <section className="page links-page">
      <PageHeader title="Links">
        <Link className="button" to="/links/import">
          Import CSV
        </Link>
        <Link className="button primary" to="/links/new">
          New link
        </Link>
      </PageHeader>
      <FirstRunChecklist />
      <LinkFilters
        values={{ search, projectId, template, tag, domain, active }}
        setParam={setParam}
        projects={projects.data ?? []}
        templates={templates.data ?? []}
        tags={tags.data?.tags ?? []}
        domains={domains.data ?? []}
      />

      {visibleSelected.length > 0 && (
        <div className="bulk-bar" role="region" aria-label="Bulk actions">
          <strong>{fmtNumber(visibleSelected.length)} selected</strong>
          <button type="button" className="button small" onClick={() => bulk.mutate({ kind: 'active', value: true })} disabled={bulk.isPending}>
            Activate
          </button>
          <button type="button" className="button small" onClick={() => bulk.mutate({ kind: 'active', value: false })} disabled={bulk.isPending}>
            Deactivate
          </button>
          <label className="inline">
            <span className="visually-hidden">Move to project</span>
            <Select
              value={moveTo}
              onChange={setMoveTo}
              options={[
                ['', 'Move to project…'],
                ['none', 'No project'],
                ...namedOptions(projects.data),
              ]}
            />
          </label>
          <button
            type="button"
            className="button small"
            disabled={!moveTo || bulk.isPending}
            onClick={() => bulk.mutate({ kind: 'project', projectId: moveTo === 'none' ? null : moveTo })}
          >
            Move
          </button>
          <button type="button" className="button small danger" onClick={() => setConfirming(true)} disabled={bulk.isPending}>
            Delete
          </button>
          <button type="button" className="button small ghost" onClick={() => setSelected(new Set())}>
            Clear
          </button>
        </div>
      )}
      <ErrorBanner error={bulk.error} />
      <ErrorBanner error={links.error} />

      {links.isPending ? (
        <Loading label="Loading links…" />
      ) : !filtered && loaded.length === 0 ? (
        <Empty title="No links yet">
          <p>Create your first short link: paste a destination, add UTM tags, share it anywhere.</p>
          <Link className="button primary" to="/links/new">
            Create a link
          </Link>
        </Empty>
      ) : (
        <div className="table" role="table" aria-label="Links" aria-rowcount={rows.length + 1}>
          <div className="table-head" role="row">
            <span role="columnheader" className="cell-check">
              <input
                type="checkbox"
                aria-label={allSelected ? 'Clear selection' : `Select all ${rows.length} links`}
                checked={allSelected}
                onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
              />
            </span>
            <span role="columnheader" className="cell-main">
              {sortHeader('title', 'Link')}
            </span>
            <span role="columnheader" className="cell-num">
              {sortHeader('clickCount', 'Clicks')}
            </span>
            <span role="columnheader" className="cell-date">
              {sortHeader('createdAt', 'Created')}
            </span>
          </div>
          {rows.length === 0 ? (
            <Empty title="No links match">
              <p>Try another search or clear the filters.</p>
            </Empty>
          ) : (
            <VirtualRows rows={rows} view={`${deferredSearch}|${projectId}|${template}|${tag}|${domain}|${active}|${sort}|${dir}`} selected={selected} onToggle={toggle} />
          )}
          <div className="table-foot">
            {fmtNumber(rows.length)} of {fmtNumber(loaded.length)} links
            {hasNextPage && <span className="muted"> · loading more…</span>}
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${fmtNumber(visibleSelected.length)} links?`}
        body={<p>Their short URLs stop working at once. This cannot be undone.</p>}
        busy={bulk.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => bulk.mutate({ kind: 'delete' })}
      />
    </section>
  );
}
