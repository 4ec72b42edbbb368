import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { AuthForm } from '../components/auth-form';
import { Field } from '../components/ui';

/** Asks for a reset link. The answer is the same whether the address has an account or not. */
export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = async (form: FormData) => {
    const email = String(form.get('email')).trim();
    await unwrap(api.POST('/auth/forgot-password', { body: { email } }));
    setSentTo(email);
  };
  return (
    <AuthForm
      title="Reset your password"
      intro={
        sentTo ? (
          <span role="status">
            If an account exists for <strong>{sentTo}</strong>, we sent it a link. It works once, for an hour.
          </span>
        ) : (
          'Enter the address of your account: we will email you a link to choose a new password.'
        )
      }
      fields={['email']}
      submitLabel={sentTo ? 'Send again' : 'Send the link'}
      busyLabel="Sending…"
      onSubmit={submit}
      footer={
        <>
          Remembered it? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {(errors) => (
        <Field label="Email" error={errors.email}>
          {(p) => <input {...p} name="email" type="email" autoComplete="email" required autoFocus />}
        </Field>
      )}
    </AuthForm>
  );
}
