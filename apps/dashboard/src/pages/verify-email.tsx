import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { hashToken } from '../components/hash-token';
import { ThemeToggle } from '../components/layout';

/** The verification email's link (`#token=dlv_…`): confirms the address once, then says so. */
export default function VerifyEmailPage() {
  const [state, setState] = useState<'checking' | 'done' | 'failed'>('checking');
  const [message, setMessage] = useState('');
  useEffect(() => {
    const token = hashToken();
    if (!token) {
      setState('failed');
      setMessage('This link has no token. Open the link from the email again.');
      return;
    }
    unwrap(api.POST('/auth/verify-email', { body: { token } })).then(
      () => setState('done'),
      (err: Error) => {
        setState('failed');
        setMessage(`${err.message}. Ask for a new email from the banner of your dashboard.`);
      },
    );
  }, []);
  return (
    <main className="auth-page">
      <div className="auth-theme">
        <ThemeToggle />
      </div>
      <div className="card auth-card" aria-live="polite">
        <div className="brand auth-brand">
          <span className="brand-mark" aria-hidden="true" /> Deeplink
        </div>
        <h1>{state === 'done' ? 'Email confirmed' : state === 'failed' ? 'Could not confirm' : 'Confirming…'}</h1>
        {state === 'done' && <p className="muted">Thank you: your address is confirmed.</p>}
        {state === 'failed' && <p className="error-banner">{message}</p>}
        <p className="muted">
          <Link to="/links">Go to the dashboard</Link>
        </p>
      </div>
    </main>
  );
}
