import { memo, useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { api, unwrap } from '../api/client';
import type { components, paths } from '../api/schema';
import { fmtDate, fmtNumber } from '../components/format';
import { ConfirmDialog, Empty, ErrorBanner, Loading, PageHeader } from '../components/ui';
import { useToast } from '../components/toasts';

type LinkItem = components['schemas']['LinkListItemDto'];
type UpdateBody = components['schemas']['UpdateLinkDto'];
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
const ROW_HEIGHT = 56;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What a row shows, formatted once per link object (Intl formatting is the dearest part of a
 * row): a scroll frame that brings rows back into view formats nothing twice.
 */
interface RowView {
  title: string;
  code: string;
  url: string;
  clicks: string;
  created: string;
}
const views = new WeakMap<LinkItem, RowView>();
function rowView(l: LinkItem): RowView {
  let v = views.get(l);
  if (!v) {
    v = { title: l.title || l.shortCode, code: `/${l.shortCode}`, url: l.originalUrl, clicks: fmtNumber(l.clickCount), created: fmtDate(l.createdAt) };
    views.set(l, v);
  }
  return v;
}

// React wants a handler on a controlled checkbox; the list's one delegated onChange does the work.
const noop = () => undefined;
const BASE = import.meta.env.BASE_URL;

/**
 * One row of the virtualised list. Memoised on (link, position, selection) only: no per-row
 * closures (clicks and checkbox changes are handled once, on the list, by `data-*`), a plain
 * `<a href>` instead of the router's Link (whose hooks cost more than the rest of the row),
 * and `contain: strict` in the CSS so a row's layout never spills into its neighbours.
 */
const LinkRow = memo(function LinkRow({ link, index, start, selected }: { link: LinkItem; index: number; start: number; selected: boolean }) {
  const v = rowView(link);
  return (
    <div role="row" aria-rowindex={index + 2} className={selected ? 'table-row selected' : 'table-row'} style={{ transform: `translateY(${start}px)` }}>
      <span role="cell" className="cell-check">
        <input type="checkbox" aria-label={`Select ${link.shortCode}`} checked={selected} data-id={link.id} onChange={noop} />
      </span>
      <span role="cell" className="cell-main">
        <a href={`${BASE}links/${link.id}`} className="row-title" data-nav={`/links/${link.id}`}>
          {v.title}
        </a>
        <span className="row-sub">
          <code>{v.code}</code> → <span className="truncate">{v.url}</span>
        </span>
      </span>
      <span role="cell" className="cell-num">
        {v.clicks}
      </span>
      <span role="cell" className="cell-date">
        {v.created}
      </span>
    </div>
  );
});

/**
 * The scrolling body: its own component, so a scroll frame re-renders the rows in view and
 * nothing else of the page (toolbar, filters and bulk bar stay as they are).
 */
const VirtualRows = memo(function VirtualRows({
  rows,
  view,
  selected,
  onToggle,
}: {
  rows: LinkItem[];
  /** The filters and order the rows answer: when it changes the list scrolls back to the top. */
  view: string;
  selected: Set<string>;
  onToggle: (id: string) => void;
}) {
  const navigate = useNavigate();
  const scrollRef = useRef<HTMLDivElement>(null);
  // Stable while the list is: a new function each render makes the virtualizer re-measure all 25,000 rows.
  const getItemKey = useCallback((i: number) => rows[i].id, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey,
    overscan: 4,
  });
  // A new order or filter starts at the top (a data refresh of the same view keeps its place).
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [view]);
  const onClick = useCallback(
    (e: MouseEvent<HTMLDivElement>) => {
      const a = (e.target as HTMLElement).closest<HTMLAnchorElement>('a[data-nav]');
      // A plain left click navigates in the app; Ctrl/Cmd/Shift/Alt clicks keep the browser's behaviour.
      if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      void navigate(a.dataset.nav as string);
    },
    [navigate],
  );
  const onChange = useCallback(
    (e: ChangeEvent<HTMLDivElement>) => {
      const id = (e.target as HTMLElement).dataset.id;
      if (id) onToggle(id);
    },
    [onToggle],
  );
  return (
    <div ref={scrollRef} className="table-scroll" data-testid="links-scroll" onClick={onClick} onChange={onChange}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const link = rows[v.index];
          return <LinkRow key={link.id} link={link} index={v.index} start={v.start} selected={selected.has(link.id)} />;
        })}
      </div>
    </div>
  );
});

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
          // projectId is a nullable string; the document types it `object` (see link-form.tsx toBody).
          const data = (action.kind === 'active' ? { isActive: action.value } : { projectId: action.projectId }) as UpdateBody;
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
      <div className="toolbar" role="search">
        <label className="grow">
          <span className="visually-hidden">Search links</span>
          <input
            type="search"
            placeholder="Search title, code or destination"
            value={search}
            onChange={(e) => setParam('q', e.target.value)}
          />
        </label>
        <label>
          <span className="visually-hidden">Project</span>
          <select aria-label="Project" value={projectId} onChange={(e) => setParam('project', e.target.value)}>
            <option value="">All projects</option>
            {projects.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="visually-hidden">Template</span>
          <select aria-label="Template" value={template} onChange={(e) => setParam('template', e.target.value)}>
            <option value="">All templates</option>
            {templates.data?.map((t) => (
              <option key={t.id} value={t.slug}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="visually-hidden">Tag</span>
          <select aria-label="Tag" value={tag} onChange={(e) => setParam('tag', e.target.value)}>
            <option value="">All tags</option>
            {tags.data?.tags.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name} ({fmtNumber(t.count)})
              </option>
            ))}
          </select>
        </label>
        {(domains.data?.length ?? 0) > 0 && (
          <label>
            <span className="visually-hidden">Domain</span>
            <select aria-label="Domain" value={domain} onChange={(e) => setParam('domain', e.target.value)}>
              <option value="">All domains</option>
              {domains.data?.map((d) => (
                <option key={d.id} value={d.domain}>
                  {d.domain}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          <span className="visually-hidden">Status</span>
          <select aria-label="Status" value={active} onChange={(e) => setParam('active', e.target.value)}>
            <option value="">Active and inactive</option>
            <option value="true">Active only</option>
            <option value="false">Inactive only</option>
          </select>
        </label>
      </div>

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
            <select value={moveTo} onChange={(e) => setMoveTo(e.target.value)}>
              <option value="">Move to project…</option>
              <option value="none">No project</option>
              {projects.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
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
