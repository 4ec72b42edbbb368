import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { setSession } from '../api/session';
import { AuthForm } from '../components/auth-form';
import { Field } from '../components/ui';

/** Sign in: email and password, then (two-factor authentication on) a code from the authenticator app or a recovery code. */
export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [challenge, setChallenge] = useState<string | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);

  const signedIn = (session: { accessToken?: string; expiresIn?: number }) => {
    setSession(session.accessToken ?? '', session.expiresIn ?? 0);
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from !== '/login' ? from : '/links', { replace: true });
  };

  const submitPassword = async (form: FormData) => {
    const result = await unwrap(api.POST('/auth/login', { body: { email: String(form.get('email')), password: String(form.get('password')) } }));
    if (result.twoFactorRequired && result.challengeToken) setChallenge(result.challengeToken);
    else signedIn(result);
  };

  const submitCode = async (form: FormData) => {
    const value = String(form.get(useRecovery ? 'recoveryCode' : 'code')).trim();
    const body = useRecovery ? { challengeToken: challenge ?? '', recoveryCode: value } : { challengeToken: challenge ?? '', code: value };
    try {
      signedIn(await unwrap(api.POST('/auth/login/2fa', { body })));
    } catch (err) {
      // A dead challenge (expired, or too many wrong codes) cannot be retried: back to the password.
      if (err instanceof Error && err.message === 'Invalid or expired challenge') setChallenge(null);
      throw err;
    }
  };

  if (challenge) {
    return (
      <AuthForm
        key="code"
        title="Two-factor authentication"
        intro={useRecovery ? 'Enter one of your recovery codes. Each works once.' : 'Enter the 6-digit code from your authenticator app.'}
        fields={['code', 'recoveryCode']}
        submitLabel="Verify"
        busyLabel="Verifying…"
        onSubmit={submitCode}
        footer={
          <button type="button" className="link-button" onClick={() => setUseRecovery(!useRecovery)}>
            {useRecovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
          </button>
        }
      >
        {(errors) =>
          useRecovery ? (
            <Field label="Recovery code" error={errors.recoveryCode ?? errors.code}>
              {(p) => <input {...p} key="recovery" name="recoveryCode" autoComplete="one-time-code" placeholder="xxxxx-xxxxx" required autoFocus />}
            </Field>
          ) : (
            <Field label="Code" error={errors.code}>
              {(p) => (
                <input {...p} key="totp" name="code" inputMode="numeric" pattern="[0-9]{6}" maxLength={6} autoComplete="one-time-code" required autoFocus />
              )}
            </Field>
          )
        }
      </AuthForm>
    );
  }

  return (
    <AuthForm
      key="password"
      title="Sign in"
      fields={['email', 'password']}
      submitLabel="Sign in"
      busyLabel="Signing in…"
      onSubmit={submitPassword}
      footer={
        <>
          New here? <Link to="/signup">Create an account</Link> · <Link to="/forgot-password">Forgot your password?</Link>
        </>
      }
    >
      {(errors) => (
        <>
          <Field label="Email" error={errors.email}>
            {(p) => <input {...p} name="email" type="email" autoComplete="email" required autoFocus />}
          </Field>
          <Field label="Password" error={errors.password}>
            {(p) => <input {...p} name="password" type="password" autoComplete="current-password" required />}
          </Field>
        </>
      )}
    </AuthForm>
  );
}
