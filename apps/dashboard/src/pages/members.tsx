import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { sessionClaims } from '../api/session';
import { fmtDate } from '../components/format';
import { ConfirmDialog, ErrorBanner, Field, fieldErrors, Loading, PageHeader } from '../components/ui';
import { useAction } from '../components/use-crud';

const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'] as const;
type Role = (typeof ROLES)[number];

export default function MembersPage() {
  const members = useQuery({ queryKey: ['members'], queryFn: () => unwrap(api.GET('/api/organization/members')) });
  const [form, setForm] = useState({ email: '', role: 'MEMBER' as Role, name: '', password: '' });
  const add = useAction(
    () =>
      unwrap(
        api.POST('/api/organization/members', {
          body: { email: form.email, role: form.role, ...(form.name ? { name: form.name } : {}), ...(form.password ? { password: form.password } : {}) },
        }),
      ),
    (m) => `${m.email} added`,
    ['members'],
  );
  const changeRole = useAction(
    ({ userId, role }: { userId: string; role: Role }) =>
      unwrap(api.PATCH('/api/organization/members/{userId}', { params: { path: { userId } }, body: { role } })),
    'Role changed',
    ['members'],
  );
  const [removing, setRemoving] = useState<{ userId: string; email: string } | null>(null);
  const remove = useAction(
    (userId: string) => unwrap(api.DELETE('/api/organization/members/{userId}', { params: { path: { userId } } })),
    'Member removed',
    ['members'],
  );
  const errors = fieldErrors(add.error);
  const me = sessionClaims()?.sub;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(undefined, { onSuccess: () => setForm({ email: '', role: 'MEMBER', name: '', password: '' }) });
  };
  return (
    <section className="page">
      <PageHeader title="Members" />
      <form className="card form" onSubmit={submit} noValidate aria-label="Add a member">
        <h2>Add a member</h2>
        <p className="hint">Someone without an account yet gets one with the name and initial password you give.</p>
        <ErrorBanner error={add.error} fields={['email', 'role', 'name', 'password']} />
        <div className="form-row">
          <Field label="Email" error={errors.email}>
            {(p) => <input {...p} type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />}
          </Field>
          <Field label="Role" error={errors.role}>
            {(p) => (
              <select {...p} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r.toLowerCase()}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Name (new account)" error={errors.name}>
            {(p) => <input {...p} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />}
          </Field>
          <Field label="Initial password (new account)" error={errors.password}>
            {(p) => <input {...p} type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />}
          </Field>
        </div>
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={add.isPending}>
            Add member
          </button>
        </div>
      </form>
      <ErrorBanner error={members.error ?? changeRole.error ?? remove.error} />
      {members.isPending ? (
        <Loading />
      ) : (
        <div className="card table-wrap">
          <table className="plain">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                <th>Since</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {members.data?.members.map((m) => (
                <tr key={m.userId}>
                  <td>
                    {m.name} {m.userId === me && <span className="pill">you</span>}
                  </td>
                  <td>{m.email}</td>
                  <td>
                    <label>
                      <span className="visually-hidden">Role of {m.email}</span>
                      <select value={m.role as string} onChange={(e) => changeRole.mutate({ userId: m.userId, role: e.target.value as Role })}>
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r.toLowerCase()}
                          </option>
                        ))}
                      </select>
                    </label>
                  </td>
                  <td>{fmtDate(m.createdAt)}</td>
                  <td className="num">
                    {m.userId !== me && (
                      <button type="button" className="button small danger" onClick={() => setRemoving({ userId: m.userId, email: m.email })}>
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={Boolean(removing)}
        title={`Remove ${removing?.email}?`}
        body={<p>Their sessions and API keys stop working at once.</p>}
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate(removing.userId, { onSettled: () => setRemoving(null) })}
      />
    </section>
  );
}
