import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { AuthForm, useSignedIn } from '../components/auth-form';
import { Field } from '../components/ui';

export default function SignupPage() {
  const signedIn = useSignedIn();
  const submit = async (form: FormData) => {
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
    signedIn(session);
  };
  return (
    <AuthForm
      title="Create your account"
      fields={['name', 'email', 'password', 'organizationName']}
      submitLabel="Create account"
      busyLabel="Creating…"
      onSubmit={submit}
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {(errors) => (
        <>
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
        </>
      )}
    </AuthForm>
  );
}
