import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { fmtDateTime } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable } from '../components/resource';
import { CodeChecklist, Empty, ErrorBanner, Field, FieldError, fieldErrors, Loading, PageHeader, SecretOnce } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

type EventType = components['schemas']['CreateWebhookDto']['events'][number];

/** Every kind a webhook can subscribe to, as the API lists them: one it adds fails the type check until it is here. */
const EVENT_MEANING: Record<EventType, string> = {
  'link.clicked': 'A short link was visited',
  'link.created': 'A link was created',
  'link.updated': 'A link was changed',
  'link.deleted': 'A link was deleted',
  'link.flagged': 'A link was blocked as unsafe',
  'install.attributed': 'An app install was attributed to a link',
  'lead.created': 'A lead was tracked',
  'sale.created': 'A sale was tracked',
  'report.generated': 'A monthly report is ready',
};
const EVENTS = Object.entries(EVENT_MEANING) as Array<[EventType, string]>;

function Deliveries({ id }: { id: string }) {
  const deliveries = useQuery({
    queryKey: ['deliveries', id],
    queryFn: () => unwrap(api.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: { limit: 20 } } })),
    refetchInterval: 5000,
  });
  if (deliveries.error) return <ErrorBanner error={deliveries.error} />;
  return (
    <ResourceTable
      loading={deliveries.isPending}
      items={deliveries.data}
      empty={{ title: 'No deliveries yet', body: 'Send a test event to check your endpoint.' }}
      head={['Event', 'Status', 'Attempts', 'Last answer', 'Created']}
      numeric={['Attempts']}
      testId="deliveries"
    >
      {(d) => {
        const last = d.attempts[d.attempts.length - 1];
        return (
          <tr key={d.id}>
            <td>
              <code>{d.eventType}</code>
            </td>
            <td>
              <span className={`pill ${d.status === 'success' ? 'ok' : d.status === 'failed' ? 'bad' : ''}`}>{d.status}</span>
            </td>
            <td className="num">{d.attemptCount}</td>
            <td>{last ? (last.statusCode ? `HTTP ${last.statusCode}` : (last.error ?? '—')) + ` · ${last.durationMs} ms` : '—'}</td>
            <td>{fmtDateTime(d.createdAt)}</td>
          </tr>
        );
      }}
    </ResourceTable>
  );
}

export default function WebhooksPage() {
  const webhooks = useQuery({ queryKey: ['webhooks'], queryFn: () => unwrap(api.GET('/api/webhooks')) });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(['link.clicked']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const create = useAction(() => unwrap(api.POST('/api/webhooks', { body: { url, events } })), 'Webhook created', ['webhooks']);
  const test = useAction((id: string) => unwrap(api.POST('/api/webhooks/{id}/test', { params: { path: { id } } })), 'Test event sent', ['deliveries']);
  const toggle = useAction(
    ({ id, isActive }: { id: string; isActive: boolean }) => unwrap(api.PATCH('/api/webhooks/{id}', { params: { path: { id } }, body: { isActive } })),
    'Webhook updated',
    ['webhooks'],
  );
  const remove = useRemoval((id: string) => unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id } } })), 'Webhook deleted', ['webhooks']);
  const errors = fieldErrors(create.error);
  const submit = () => create.mutate(undefined, { onSuccess: (w) => (setSecret(w.secret), setUrl(''), setOpen(w.id)) });
  return (
    <section className="page">
      <PageHeader title="Webhooks" />
      <FormCard
        title="New webhook"
        intro={secret && <SecretOnce label="Signing secret" value={secret} onDone={() => setSecret(null)} />}
        error={create.error}
        fields={['url', 'events']}
        submitLabel="Create webhook"
        busy={create.isPending}
        onSubmit={submit}
      >
        <Field label="Endpoint URL" error={errors.url}>
          {(p) => <input {...p} name="webhookUrl" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/hooks/deeplink" />}
        </Field>
        <fieldset>
          <legend>Events</legend>
          <CodeChecklist options={EVENTS} value={events} onChange={setEvents} />
          <FieldError message={errors.events} />
        </fieldset>
      </FormCard>
      <ErrorBanner error={webhooks.error ?? test.error ?? toggle.error ?? remove.error} />
      {webhooks.isPending ? (
        <Loading />
      ) : !webhooks.data?.length ? (
        <Empty title="No webhooks">
          <p>Add an endpoint to receive clicks, link changes, leads, sales and reports as they happen.</p>
        </Empty>
      ) : (
        webhooks.data.map((w) => (
          <article key={w.id} className="card form" aria-label={`Webhook ${w.url}`}>
            <div className="page-header">
              <div className="cell-main">
                <strong className="truncate">{w.url}</strong>
                <span className="muted">
                  {w.events.join(', ')} · {w.isActive ? <span className="pill ok">active</span> : <span className="pill bad">{w.disabledReason ?? 'paused'}</span>}
                </span>
              </div>
              <div className="page-actions">
                <button type="button" className="button small" onClick={() => test.mutate(w.id, { onSuccess: () => setOpen(w.id) })}>
                  Send test
                </button>
                <button type="button" className="button small" onClick={() => toggle.mutate({ id: w.id, isActive: !w.isActive })}>
                  {w.isActive ? 'Pause' : 'Resume'}
                </button>
                <button type="button" className="button small" aria-expanded={open === w.id} onClick={() => setOpen(open === w.id ? null : w.id)}>
                  Deliveries
                </button>
                <button type="button" className="button small danger" onClick={() => remove.ask({ id: w.id, name: w.url })}>
                  Delete
                </button>
              </div>
            </div>
            {open === w.id && <Deliveries id={w.id} />}
          </article>
        ))
      )}
      <ConfirmRemoval
        removal={remove}
        title={(w) => `Delete the webhook to ${w.name}?`}
        body="It stops receiving events at once."
      />
    </section>
  );
}
