import { useEffect, useId, useRef, useState, type ReactNode, type SelectHTMLAttributes } from 'react';
import { ApiError } from '../api/client';

/** The API refused the page (403: a paid feature, or a role short of it). */
export function isForbidden(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403;
}

/** A page shown in place of one the API refused: its title, and why in words. */
export function Unavailable({ title, heading = 'Not available', children }: { title: string; heading?: string; children: ReactNode }) {
  return (
    <section className="page">
      <PageHeader title={title} />
      <Empty title={heading}>
        <p>{children}</p>
      </Empty>
    </section>
  );
}

/** A labelled form field; `error` (from the API's `validation` map) is shown under it and announced. */
export function Field({
  label,
  error,
  hint,
  children,
  className,
}: {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': describedBy })}
      {hint && (
        <div id={`${id}-hint`} className="hint">
          {hint}
        </div>
      )}
      <FieldError message={error} id={`${id}-error`} />
    </div>
  );
}

type SelectProps<T extends string | number> = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  value: T;
  onChange: (value: T) => void;
  /** [value, label] pairs, in order; a value of '' is the "none" or "all" choice where a page has one. */
  options: ReadonlyArray<readonly [T, ReactNode]>;
};

/** A <select> over [value, label] pairs, typed by its values: a number option comes back as a number. */
export function Select<T extends string | number>({ value, onChange, options, ...rest }: SelectProps<T>) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(options[e.target.selectedIndex][0])}>
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  );
}

/** The options of a list of named things (templates, projects), by id. */
export function namedOptions(items: ReadonlyArray<{ id: string; name: string }> | undefined): Array<readonly [string, string]> {
  return items?.map((i) => [i.id, i.name] as const) ?? [];
}

/** A `Select` in a labelled `Field` (its error and hint under it). */
export function SelectField<T extends string | number>({ label, error, hint, ...select }: SelectProps<T> & { label: string; error?: string; hint?: ReactNode }) {
  return <Field label={label} error={error} hint={hint}>{(p) => <Select {...p} {...select} />}</Field>;
}

/** Checkboxes for a set of codes (key scopes, webhook events), each with what it means. */
export function CodeChecklist<T extends string>({ options, value, onChange }: { options: ReadonlyArray<readonly [T, string]>; value: readonly T[]; onChange: (next: T[]) => void }) {
  return (
    <div className="scope-list">
      {options.map(([code, text]) => (
        <label key={code} className="checkbox">
          <input type="checkbox" checked={value.includes(code)} onChange={(e) => onChange(e.target.checked ? [...value, code] : value.filter((x) => x !== code))} />
          <span>
            <code>{code}</code> <span className="muted">{text}</span>
          </span>
        </label>
      ))}
    </div>
  );
}

/** The API's message about a field (or a group of them), under it, announced; nothing without one. */
export function FieldError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <div id={id} className="field-error" role="alert">
      {message}
    </div>
  );
}

/** The API's message in words (never a JSON dump), with the request's fields listed when they are not on screen. */
export function ErrorBanner({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : 'Something went wrong';
  const extra =
    error instanceof ApiError ? Object.entries(error.validation).filter(([field]) => !fields.includes(field)) : [];
  return (
    <div className="error-banner" role="alert">
      <strong>{message}</strong>
      {extra.length > 0 && (
        <ul>
          {extra.map(([field, text]) => (
            <li key={field}>
              <code>{field}</code>: {text}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function fieldErrors(error: unknown): Record<string, string> {
  return error instanceof ApiError ? error.validation : {};
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-busy="true">
      <span className="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1>{title}</h1>
      <div className="page-actions">{children}</div>
    </div>
  );
}

/** A modal confirmation (native <dialog>: focus trapped, Escape cancels). */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel = 'Delete',
  onConfirm,
  onCancel,
  busy,
}: {
  open: boolean;
  title: string;
  body?: ReactNode;
  confirmLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Its own id: a page with two dialogs (apps and pixel sites) must not name both by one heading.
  const titleId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" onCancel={(e) => (e.preventDefault(), onCancel())} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {body && <div className="dialog-body">{body}</div>}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** A secret shown once (API key, webhook secret, app token) with a copy button. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone?: () => void }) {
  return (
    <div className="secret-once" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong> — copy it now: it is shown only once.
      </p>
      <div className="copy-row">
        <code className="secret" data-testid="secret">
          {value}
        </code>
        <CopyButton value={value} />
      </div>
      {onDone && (
        <button type="button" className="button ghost" onClick={onDone}>
          Done
        </button>
      )}
    </div>
  );
}

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const t = document.createElement('textarea');
      t.value = value;
      document.body.append(t);
      t.select();
      document.execCommand('copy');
      t.remove();
    }
    setCopied(true);
  };
  // The label says it worked for two seconds (announced: aria-live).
  return (
    <button type="button" className="button small" onClick={copy} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A figure with its label (a card of its own unless `plain`); `children` go under the figure. */
export function Stat({ label, value, testId, plain, children }: { label: ReactNode; value: ReactNode; testId?: string; plain?: boolean; children?: ReactNode }) {
  return (
    <div className={plain ? 'stat' : 'card stat'}>
      <span className="label">{label}</span>
      <span className="value" data-testid={testId}>
        {value}
      </span>
      {children}
    </div>
  );
}
