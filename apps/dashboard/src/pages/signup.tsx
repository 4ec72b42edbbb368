import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { setSession } from '../api/session';
import { ErrorBanner, Field, fieldErrors } from '../components/ui';
import { ThemeToggle } from '../components/layout';

export default function SignupPage() {
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const session = await unwrap(
        api.POST('/auth/signup', {
          body: {
            name: String(form.get('name')),
            email: String(form.get('email')),
            password: String(form.get('password')),
            organizationName: String(form.get('organizationName')),
          },
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
        <h1>Create your account</h1>
        <ErrorBanner error={error} fields={['name', 'email', 'password', 'organizationName']} />
        <Field label="Your name" error={errors.name}>
          {(p) => <input {...p} name="name" autoComplete="name" required autoFocus />}
        </Field>
        <Field label="Work email" error={errors.email}>
          {(p) => <input {...p} name="email" type="email" autoComplete="email" required />}
        </Field>
        <Field label="Password" error={errors.password} hint="At least 10 characters">
          {(p) => <input {...p} name="password" type="password" autoComplete="new-password" required minLength={10} />}
        </Field>
        <Field label="Organization" error={errors.organizationName}>
          {(p) => <input {...p} name="organizationName" autoComplete="organization" required />}
        </Field>
        <button className="button primary wide" type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
        <p className="muted">
          Already have an account? <Link to="/login">Sign in</Link>
        </p>
      </form>
    </main>
  );
}
