import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { AuthForm, useSignedIn } from '../components/auth-form';
import { Field } from '../components/ui';

const SSO_REQUIRED = /^Single sign-on required for /;

/**
 * Single sign-on from the email (decisions §25): asks /auth/sso/start without following it, so an
 * error (no SSO for the domain) is shown here in words; its redirect is then followed by the page.
 */
async function startSso(email: string): Promise<void> {
  const url = `/auth/sso/start?email=${encodeURIComponent(email.trim())}`;
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'manual', credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, { error: 'Network error', message: 'The server could not be reached. Check your connection.', statusCode: 0 });
  }
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    window.location.assign(url);
    return;
  }
  const body = await res.json().catch(() => null);
  throw new ApiError(res.status, body && typeof body.message === 'string' ? body : { error: 'Error', message: `Request failed (${res.status})`, statusCode: res.status });
}

/**
 * Sign in: email and password, then (two-factor authentication on) a code from the authenticator
 * app or a recovery code; or single sign-on from the email (offered, and chosen at once when the
 * password answer says the domain requires it).
 */
export default function LoginPage() {
  const [challenge, setChallenge] = useState<string | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  // `/login?sso` opens the single sign-on form directly (a link to bookmark or send).
  const [params] = useSearchParams();
  const [sso, setSso] = useState<{ email: string; required: boolean } | null>(() => (params.has('sso') ? { email: params.get('email') ?? '', required: false } : null));

  const signedIn = useSignedIn();

  const submitPassword = async (form: FormData) => {
    const email = String(form.get('email'));
    let result;
    try {
      result = await unwrap(api.POST('/auth/login', { body: { email, password: String(form.get('password')) } }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 403 && SSO_REQUIRED.test(err.message)) {
        setSso({ email, required: true });
        return;
      }
      throw err;
    }
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

  if (sso) {
    return (
      <AuthForm
        key="sso"
        title="Sign in with SSO"
        intro={
          sso.required
            ? 'Your organization signs in through its identity provider.'
            : "Enter your work email: you continue at your organization's identity provider."
        }
        fields={['email']}
        submitLabel="Continue with SSO"
        busyLabel="Redirecting…"
        onSubmit={(form) => startSso(String(form.get('email')))}
        footer={
          <button type="button" className="link-button" onClick={() => setSso(null)}>
            Use a password instead
          </button>
        }
      >
        {(errors) => (
          <Field label="Work email" error={errors.email}>
            {(p) => <input {...p} name="email" type="email" autoComplete="email" defaultValue={sso.email} required autoFocus />}
          </Field>
        )}
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
          {/* A link (the view of /login?sso), taking along the email typed so far. */}
          <Link
            to="/login?sso"
            className="button wide sso-link"
            onClick={(e) => {
              e.preventDefault();
              const form = e.currentTarget.closest('form');
              setSso({ email: String((form ? new FormData(form).get('email') : '') ?? ''), required: false });
            }}
          >
            Sign in with SSO
          </Link>
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
