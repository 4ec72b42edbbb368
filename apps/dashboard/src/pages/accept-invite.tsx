import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { getToken, refreshSession } from '../api/session';
import { hashToken } from '../components/hash-token';
import { AuthForm, useSignedIn } from '../components/auth-form';
import { Field } from '../components/ui';

/**
 * The invitation email's token (from the link's #token=, or pasted) → signed in to the organization.
 * A new account gives a name and password; an existing verified account accepts signed in (the
 * session is sent along); an unverified one chooses its password (decisions §20).
 */
export default function AcceptInvitePage() {
  const signedIn = useSignedIn();
  const [params] = useSearchParams();
  const submit = async (form: FormData) => {
    // Signed in already (a reload keeps only the cookie): the session proves a verified account.
    if (!getToken()) await refreshSession();
    const name = String(form.get('name') ?? '').trim();
    const password = String(form.get('password') ?? '');
    const session = await unwrap(
      api.POST('/auth/accept-invite', {
        body: { token: String(form.get('token')).trim(), ...(name ? { name } : {}), ...(password ? { password } : {}) },
      }),
    );
    signedIn(session);
  };
  return (
    <AuthForm
      title="Accept invitation"
      intro="New here? Choose your name and password. Already have an account? Sign in first, then accept."
      fields={['token', 'name', 'password']}
      submitLabel="Join the organization"
      busyLabel="Joining…"
      onSubmit={submit}
      footer={
        <>
          Already a member? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {(errors) => (
        <>
          <Field label="Invitation token" error={errors.token}>
            {(p) => <input {...p} name="token" defaultValue={hashToken() ?? params.get('token') ?? ''} placeholder="dli_…" autoComplete="off" required autoFocus />}
          </Field>
          <Field label="Your name" error={errors.name} hint="For a new account">
            {(p) => <input {...p} name="name" autoComplete="name" />}
          </Field>
          <Field label="Password" error={errors.password} hint="At least 10 characters; not needed when you are signed in">
            {(p) => <input {...p} name="password" type="password" autoComplete="new-password" minLength={10} />}
          </Field>
        </>
      )}
    </AuthForm>
  );
}
