import { type FormEvent, type ReactNode } from 'react';
import { ConfirmDialog, Empty, ErrorBanner, Loading } from './ui';
import type { Removal, RemovalTarget } from './use-crud';

/**
 * A card with a create form: title, optional intro, the API's errors (those of `fields` go
 * next to their controls), the fields, one submit button.
 */
export function FormCard({
  title,
  intro,
  error,
  fields,
  submitLabel,
  busy,
  onSubmit,
  showTitle = true,
  children,
}: {
  title: string;
  /** false where the section around the form already has the heading (the title still names the form). */
  showTitle?: boolean;
  intro?: ReactNode;
  error: unknown;
  fields: string[];
  submitLabel: string;
  busy: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={title}>
      {showTitle && <h2>{title}</h2>}
      {intro}
      <ErrorBanner error={error} fields={fields} />
      {children}
      <div className="form-actions">
        <button className="button primary" type="submit" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/**
 * A list answered by the API as a plain table: a spinner while it loads, `empty` when there
 * is nothing, else one row per item under the column heads (an empty head for the actions).
 */
export function ResourceTable<T>({
  loading,
  items,
  empty,
  head,
  numeric = [],
  label,
  title,
  testId,
  children,
}: {
  loading: boolean;
  items: T[] | undefined;
  empty: { title: string; body: ReactNode };
  head: string[];
  /** Heads of number columns (right-aligned). */
  numeric?: string[];
  label?: string;
  /** A heading inside the card, above the table. */
  title?: string;
  testId?: string;
  children: (item: T) => ReactNode;
}) {
  if (loading) return <Loading />;
  if (!items?.length)
    return (
      <Empty title={empty.title}>
        <p>{empty.body}</p>
      </Empty>
    );
  return (
    <div className="card table-wrap">
      {title && <h2>{title}</h2>}
      <table className="plain" aria-label={label} data-testid={testId}>
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={i} className={numeric.includes(h) ? 'num' : undefined}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{items.map(children)}</tbody>
      </table>
    </div>
  );
}

/** The small danger button of a table row that asks before it acts. */
export function RowAction({ label = 'Delete', onClick }: { label?: string; onClick: () => void }) {
  return (
    <td className="num">
      <button type="button" className="button small danger" onClick={onClick}>
        {label}
      </button>
    </td>
  );
}

/** The confirmation of a `useRemoval`: open while it has a target, named by `title`. */
export function ConfirmRemoval({
  removal,
  title,
  body,
  confirmLabel,
}: {
  removal: Pick<Removal, 'target' | 'close' | 'mutate' | 'isPending'>;
  title: (target: RemovalTarget) => string;
  body: ReactNode;
  confirmLabel?: string;
}) {
  const { target, close } = removal;
  return (
    <ConfirmDialog
      open={Boolean(target)}
      title={target ? title(target) : ''}
      body={<p>{body}</p>}
      confirmLabel={confirmLabel}
      busy={removal.isPending}
      onCancel={close}
      onConfirm={() => target && removal.mutate(target.id, { onSettled: close })}
    />
  );
}
