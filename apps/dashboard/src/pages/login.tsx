import { Link, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { setSession } from '../api/session';
import { AuthForm } from '../components/auth-form';
import { Field } from '../components/ui';

export default function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const submit = async (form: FormData) => {
    const session = await unwrap(api.POST('/auth/login', { body: { email: String(form.get('email')), password: String(form.get('password')) } }));
    setSession(session.accessToken, session.expiresIn);
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from !== '/login' ? from : '/links', { replace: true });
  };
  return (
    <AuthForm
      title="Sign in"
      fields={['email', 'password']}
      submitLabel="Sign in"
      busyLabel="Signing in…"
      onSubmit={submit}
      footer={
        <>
          New here? <Link to="/signup">Create an account</Link>
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
