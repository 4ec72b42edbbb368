import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import { setSession } from '../api/session';
import { AuthForm } from '../components/auth-form';
import { Field } from '../components/ui';

/** The invitation email's token (or ?token= in a link) + the invitee's name and password → signed in. */
export default function AcceptInvitePage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const submit = async (form: FormData) => {
    const session = await unwrap(
      api.POST('/auth/accept-invite', {
        body: { token: String(form.get('token')).trim(), name: String(form.get('name')), password: String(form.get('password')) },
      }),
    );
    setSession(session.accessToken, session.expiresIn);
    navigate('/links', { replace: true });
  };
  return (
    <AuthForm
      title="Accept invitation"
      intro="Paste the token from your invitation email and choose your password."
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
            {(p) => <input {...p} name="token" defaultValue={params.get('token') ?? ''} placeholder="dli_…" autoComplete="off" required autoFocus />}
          </Field>
          <Field label="Your name" error={errors.name} hint="Ignored if you already have an account">
            {(p) => <input {...p} name="name" autoComplete="name" required />}
          </Field>
          <Field label="Password" error={errors.password} hint="At least 10 characters (your existing password if you already have an account)">
            {(p) => <input {...p} name="password" type="password" autoComplete="new-password" required minLength={10} />}
          </Field>
        </>
      )}
    </AuthForm>
  );
}
