import { useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setSession } from '../api/session';
import { NavigationProgress } from './navigation-progress';
import { ErrorBanner, fieldErrors } from './ui';
import { ThemeToggle } from './layout';

/**
 * What a signed-out page does with the session it got: keep the token, then open the page the
 * visitor came for (sign-in's `state.from`) or the links list, in place of the signed-out page.
 */
export function useSignedIn(): (session: { accessToken?: string; expiresIn?: number }) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return (session) => {
    setSession(session.accessToken ?? '', session.expiresIn ?? 0);
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from !== '/login' ? from : '/links', { replace: true });
  };
}

/**
 * The frame of the signed-out pages (sign in, sign up, accept an invitation): theme toggle,
 * brand, title, the API's errors next to the fields and above the form, a busy button.
 * `onSubmit` gets the form's values; what it throws is shown.
 */
export function AuthForm({
  title,
  intro,
  fields,
  submitLabel,
  busyLabel,
  onSubmit,
  footer,
  children,
}: {
  title: string;
  intro?: ReactNode;
  /** The fields shown (their errors go next to them, not in the banner). */
  fields: string[];
  submitLabel: string;
  busyLabel: string;
  onSubmit: (form: FormData) => Promise<void>;
  footer: ReactNode;
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await onSubmit(form);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="auth-page">
      <NavigationProgress />
      <div className="auth-theme">
        <ThemeToggle />
      </div>
      <form className="card auth-card" onSubmit={submit} noValidate>
        <div className="brand auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Deeplink
        </div>
        <h1>{title}</h1>
        {intro && <p className="muted">{intro}</p>}
        <ErrorBanner error={error} fields={fields} />
        {children(fieldErrors(error))}
        <button className="button primary wide" type="submit" disabled={busy}>
          {busy ? busyLabel : submitLabel}
        </button>
        <p className="muted">{footer}</p>
      </form>
    </main>
  );
}
