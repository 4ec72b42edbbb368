import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { AuthForm, useSignedIn } from '../components/auth-form';
import { hashToken } from '../components/hash-token';
import { Field } from '../components/ui';

/** The reset email's link (`#token=dlr_…`): a new password, then signed in (other sessions end). */
export default function ResetPasswordPage() {
  const signedIn = useSignedIn();
  const token = hashToken();
  const submit = async (form: FormData) => {
    const session = await unwrap(
      api.POST('/auth/reset-password', { body: { token: String(form.get('token') ?? token ?? '').trim(), password: String(form.get('password')) } }),
    );
    signedIn(session);
  };
  return (
    <AuthForm
      title="Choose a new password"
      intro="Every other session of your account will be signed out."
      fields={['token', 'password']}
      submitLabel="Set the password"
      busyLabel="Saving…"
      onSubmit={submit}
      footer={
        <>
          Link expired? <Link to="/forgot-password">Ask for a new one</Link>
        </>
      }
    >
      {(errors) => (
        <>
          {!token && (
            <Field label="Reset code" error={errors.token}>
              {(p) => <input {...p} name="token" placeholder="dlr_…" autoComplete="off" required />}
            </Field>
          )}
          <Field label="New password" error={errors.password} hint="At least 10 characters">
            {(p) => <input {...p} name="password" type="password" autoComplete="new-password" required minLength={10} autoFocus />}
          </Field>
        </>
      )}
    </AuthForm>
  );
}
