import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';

const DISMISSED = 'dl.firstRun.dismissed';

/**
 * The first-run checklist (decisions §24): create a link, open it, add a domain, install the SDK or
 * pixel, invite a teammate. Each step reads the organization's own state, so a step is done however
 * it was done (API, import, another teammate); the card disappears when every step is, or when dismissed.
 */
export function FirstRunChecklist() {
  const dismissed = typeof localStorage !== 'undefined' && localStorage.getItem(DISMISSED) === '1';
  const state = useQuery({
    queryKey: ['first-run'],
    enabled: !dismissed,
    queryFn: async () => {
      // A step the role cannot read (members for a viewer) counts as done rather than nagging.
      const soft = async <T,>(p: Promise<T>, done: (v: T) => boolean) => {
        try {
          return done(await p);
        } catch {
          return true;
        }
      };
      const [link, opened, domain, app, pixel, teammate] = await Promise.all([
        soft(unwrap(api.GET('/api/links', { params: { query: { limit: 1 } } })), (l) => l.length > 0),
        soft(unwrap(api.GET('/api/analytics/overview', { params: { query: { days: 365 } } })), (o) => o.totalClicks > 0),
        soft(unwrap(api.GET('/api/domains')), (d) => d.length > 0),
        soft(unwrap(api.GET('/api/apps')), (a) => a.length > 0),
        soft(unwrap(api.GET('/api/pixels')), (p) => p.length > 0),
        soft(unwrap(api.GET('/api/organization/members')), (m) => m.members.length > 1),
      ]);
      return [
        { done: link, label: 'Create a link', to: '/links/new' },
        { done: opened, label: 'Open it (a click shows up in analytics)', to: '/analytics' },
        { done: domain, label: 'Add a branded domain', to: '/domains' },
        { done: app || pixel, label: 'Install the SDK or the pixel', to: '/apps' },
        { done: teammate, label: 'Invite a teammate', to: '/members' },
      ];
    },
  });
  const steps = state.data;
  if (dismissed || !steps || steps.every((s) => s.done)) return null;
  const left = steps.filter((s) => !s.done).length;
  return (
    <section className="card checklist" aria-label="Getting started" data-testid="first-run-checklist">
      <div className="panel-head">
        <h3>Getting started · {steps.length - left} of {steps.length} done</h3>
        <button
          type="button"
          className="link-button"
          onClick={() => {
            localStorage.setItem(DISMISSED, '1');
            void state.refetch();
          }}
        >
          Hide
        </button>
      </div>
      <ol>
        {steps.map((s) => (
          <li key={s.label} className={s.done ? 'done' : undefined}>
            <span aria-hidden="true">{s.done ? '✓' : '○'}</span> {s.done ? s.label : <Link to={s.to}>{s.label}</Link>}
            {s.done && <span className="visually-hidden"> (done)</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
