import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { setSession } from '../api/session';
import { ErrorBanner, Field, fieldErrors } from '../components/ui';
import { ThemeToggle } from '../components/layout';

/** The invitation email's token (or ?token= in a link) + the invitee's name and password → signed in. */
export default function AcceptInvitePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const session = await unwrap(
        api.POST('/auth/accept-invite', {
          body: { token: String(form.get('token')).trim(), name: String(form.get('name')), password: String(form.get('password')) },
        }),
      );
      setSession(session.accessToken, session.expiresIn);
      navigate('/links', { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const errors = fieldErrors(error);
  return (
    <main className="auth-page">
      <div className="auth-theme">
        <ThemeToggle />
      </div>
      <form className="card auth-card" onSubmit={submit} noValidate>
        <div className="brand auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Deeplink
        </div>
        <h1>Accept invitation</h1>
        <p className="muted">Paste the token from your invitation email and choose your password.</p>
        <ErrorBanner error={error} fields={['token', 'name', 'password']} />
        <Field label="Invitation token" error={errors.token}>
          {(p) => <input {...p} name="token" defaultValue={params.get('token') ?? ''} placeholder="dli_…" autoComplete="off" required autoFocus />}
        </Field>
        <Field label="Your name" error={errors.name} hint="Ignored if you already have an account">
          {(p) => <input {...p} name="name" autoComplete="name" required />}
        </Field>
        <Field label="Password" error={errors.password} hint="At least 10 characters (your existing password if you already have an account)">
          {(p) => <input {...p} name="password" type="password" autoComplete="new-password" required minLength={10} />}
        </Field>
        <button className="button primary wide" type="submit" disabled={busy}>
          {busy ? 'Joining…' : 'Join the organization'}
        </button>
        <p className="muted">
          Already a member? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </main>
  );
}
