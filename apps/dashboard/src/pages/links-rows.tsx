import { memo, useCallback, useEffect, useRef, type ChangeEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { components } from '../api/schema';
import { fmtDate, fmtNumber } from '../components/format';

export type LinkItem = components['schemas']['LinkListItemDto'];
const ROW_HEIGHT = 56;

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
export const VirtualRows = memo(function VirtualRows({
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
