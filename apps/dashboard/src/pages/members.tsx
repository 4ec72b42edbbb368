import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { sessionClaims } from '../api/session';
import { fmtDate } from '../components/format';
import { ConfirmDialog, ErrorBanner, Field, fieldErrors, Loading, PageHeader, SecretOnce } from '../components/ui';
import { useAction } from '../components/use-crud';

const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'] as const;
type Role = (typeof ROLES)[number];

export default function MembersPage() {
  const members = useQuery({ queryKey: ['members'], queryFn: () => unwrap(api.GET('/api/organization/members')) });
  const invitations = useQuery({ queryKey: ['invitations'], queryFn: () => unwrap(api.GET('/api/organization/invitations')) });
  const [form, setForm] = useState({ email: '', role: 'MEMBER' as Role });
  const [invite, setInvite] = useState<{ email: string; token: string } | null>(null);
  const add = useAction(
    () => unwrap(api.POST('/api/organization/members', { body: { email: form.email, role: form.role } })),
    (m) => ('inviteToken' in m ? `Invitation sent to ${m.email}` : `${m.email} added`),
    ['members', 'invitations'],
  );
  const [revokingInvite, setRevokingInvite] = useState<{ id: string; email: string } | null>(null);
  const revokeInvite = useAction(
    (id: string) => unwrap(api.DELETE('/api/organization/invitations/{id}', { params: { path: { id } } })),
    'Invitation revoked',
    ['invitations'],
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
    add.mutate(undefined, {
      onSuccess: (m) => {
        if ('inviteToken' in m) setInvite({ email: m.email, token: m.inviteToken });
        setForm({ email: '', role: 'MEMBER' });
      },
    });
  };
  return (
    <section className="page">
      <PageHeader title="Members" />
      <form className="card form" onSubmit={submit} noValidate aria-label="Add a member">
        <h2>Add a member</h2>
        <p className="hint">Someone with an account joins at once; anyone else gets an invitation by email (valid 7 days) and chooses their own password.</p>
        {invite && (
          <SecretOnce
            label={`Invitation token for ${invite.email} (also emailed; they paste it at ${window.location.origin}/app/accept-invite)`}
            value={invite.token}
            onDone={() => setInvite(null)}
          />
        )}
        <ErrorBanner error={add.error} fields={['email', 'role']} />
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
        </div>
        <div className="form-actions">
          <button className="button primary" type="submit" disabled={add.isPending}>
            Add or invite
          </button>
        </div>
      </form>
      {invitations.data && invitations.data.invitations.length > 0 && (
        <div className="card table-wrap">
          <h2>Pending invitations</h2>
          <table className="plain" data-testid="invitations">
            <thead>
              <tr>
                <th>Email</th>
                <th>Role</th>
                <th>Expires</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {invitations.data.invitations.map((i) => (
                <tr key={i.invitationId}>
                  <td>{i.email}</td>
                  <td>{i.role.toLowerCase()}</td>
                  <td>{fmtDate(i.expiresAt)}</td>
                  <td className="num">
                    <button type="button" className="button small danger" onClick={() => setRevokingInvite({ id: i.invitationId, email: i.email })}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorBanner error={members.error ?? changeRole.error ?? remove.error ?? revokeInvite.error} />
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
      <ConfirmDialog
        open={Boolean(revokingInvite)}
        title={`Revoke the invitation of ${revokingInvite?.email}?`}
        body={<p>Its token stops working at once.</p>}
        confirmLabel="Revoke"
        busy={revokeInvite.isPending}
        onCancel={() => setRevokingInvite(null)}
        onConfirm={() => revokingInvite && revokeInvite.mutate(revokingInvite.id, { onSettled: () => setRevokingInvite(null) })}
      />
    </section>
  );
}
