import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { setSession } from '../api/session';
import { ErrorBanner, Field, fieldErrors } from '../components/ui';
import { ThemeToggle } from '../components/layout';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const session = await unwrap(
        api.POST('/auth/login', { body: { email: String(form.get('email')), password: String(form.get('password')) } }),
      );
      setSession(session.accessToken, session.expiresIn);
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== '/login' ? from : '/links', { replace: true });
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
        <h1>Sign in</h1>
        <ErrorBanner error={error} fields={['email', 'password']} />
        <Field label="Email" error={errors.email}>
          {(p) => <input {...p} name="email" type="email" autoComplete="email" required autoFocus />}
        </Field>
        <Field label="Password" error={errors.password}>
          {(p) => <input {...p} name="password" type="password" autoComplete="current-password" required />}
        </Field>
        <button className="button primary wide" type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted">
          New here? <Link to="/signup">Create an account</Link>
        </p>
      </form>
    </main>
  );
}
