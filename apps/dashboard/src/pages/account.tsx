import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { FormCard } from '../components/resource';
import { ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { AccountSessions, ChangePassword } from '../components/account-sessions';
import { TwoFactorSettings } from '../components/two-factor-settings';
import { useAction } from '../components/use-crud';

/** The signed-in account: its name, password, two-factor authentication and sessions. */
export default function AccountPage() {
  const me = useQuery({ queryKey: ['me'], queryFn: () => unwrap(api.GET('/auth/me')) });
  const [name, setName] = useState('');
  useEffect(() => setName(me.data?.user.name ?? ''), [me.data?.user.name]);
  const rename = useAction(() => unwrap(api.PATCH('/auth/me', { body: { name } })), 'Name saved', ['me']);
  const errors = fieldErrors(rename.error);
  if (me.isPending) return <Loading />;
  return (
    <section className="page">
      <PageHeader title="Account" />
      <ErrorBanner error={me.error} />
      {me.data && (
        <>
          <FormCard title="Profile" error={rename.error} fields={['name']} submitLabel="Save" busy={rename.isPending} onSubmit={() => rename.mutate(undefined)}>
            <p className="hint">
              Signed in as <strong>{me.data.user.email}</strong>
            </p>
            <Field label="Name" error={errors.name}>
              {(p) => <input {...p} name="accountName" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />}
            </Field>
          </FormCard>
          <ChangePassword />
          <div className="card">
            <h2>Two-factor authentication</h2>
            <TwoFactorSettings enabled={me.data.user.twoFactorEnabled} />
          </div>
          <AccountSessions />
        </>
      )}
    </section>
  );
}
