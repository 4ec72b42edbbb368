import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { sessionClaims } from '../api/session';
import { fmtDate } from '../components/format';
import { ConfirmRemoval, FormCard, ResourceTable, RowAction } from '../components/resource';
import { ErrorBanner, Field, fieldErrors, PageHeader, SecretOnce, Select, SelectField } from '../components/ui';
import { useAction, useRemoval } from '../components/use-crud';

const ROLES = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'] as const;
type Role = (typeof ROLES)[number];

const ROLE_CHOICES = ROLES.map((r) => [r, r.toLowerCase()] as const);

export default function MembersPage() {
  const members = useQuery({ queryKey: ['members'], queryFn: () => unwrap(api.GET('/api/organization/members')) });
  const invitations = useQuery({ queryKey: ['invitations'], queryFn: () => unwrap(api.GET('/api/organization/invitations')) });
  const [form, setForm] = useState({ email: '', role: 'MEMBER' as Role });
  const [invite, setInvite] = useState<{ email: string; token: string } | null>(null);
  const add = useAction(
    () => unwrap(api.POST('/api/organization/members', { body: { email: form.email, role: form.role } })),
    (m) => `Invitation sent to ${m.email}`,
    ['members', 'invitations'],
  );
  const revokeInvite = useRemoval(
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
  const remove = useRemoval(
    (userId: string) => unwrap(api.DELETE('/api/organization/members/{userId}', { params: { path: { userId } } })),
    'Member removed',
    ['members'],
  );
  const errors = fieldErrors(add.error);
  const me = sessionClaims()?.sub;
  const submit = () =>
    add.mutate(undefined, {
      onSuccess: (m) => {
        setInvite({ email: m.email, token: m.inviteToken });
        setForm({ email: '', role: 'MEMBER' });
      },
    });
  return (
    <section className="page">
      <PageHeader title="Members" />
      <FormCard
        title="Add a member"
        intro={
          <>
            <p className="hint">Someone with an account joins at once; anyone else gets an invitation by email (valid 7 days) and chooses their own password.</p>
            {invite && (
              <SecretOnce
                label={`Invitation token for ${invite.email} (also emailed; they paste it at ${window.location.origin}/app/accept-invite)`}
                value={invite.token}
                onDone={() => setInvite(null)}
              />
            )}
          </>
        }
        error={add.error}
        fields={['email', 'role']}
        submitLabel="Add or invite"
        busy={add.isPending}
        onSubmit={submit}
      >
        <div className="form-row">
          <Field label="Email" error={errors.email}>
            {(p) => <input {...p} type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />}
          </Field>
          <SelectField label="Role" error={errors.role} value={form.role} onChange={(role) => setForm({ ...form, role })} options={ROLE_CHOICES} />
        </div>
      </FormCard>
      {Boolean(invitations.data?.invitations.length) && (
        <ResourceTable
          loading={false}
          items={invitations.data?.invitations}
          empty={{ title: 'No pending invitations', body: '' }}
          head={['Email', 'Role', 'Expires', '']}
          title="Pending invitations"
          testId="invitations"
        >
          {(i) => (
            <tr key={i.invitationId}>
              <td>{i.email}</td>
              <td>{i.role.toLowerCase()}</td>
              <td>{fmtDate(i.expiresAt)}</td>
              <RowAction label="Revoke" onClick={() => revokeInvite.ask({ id: i.invitationId, name: i.email })} />
            </tr>
          )}
        </ResourceTable>
      )}
      <ErrorBanner error={members.error ?? changeRole.error ?? remove.error ?? revokeInvite.error} />
      <ResourceTable
        loading={members.isPending}
        items={members.data?.members}
        empty={{ title: 'No members', body: 'Add someone above.' }}
        head={['Name', 'Email', 'Role', 'Since', '']}
      >
        {(m) => (
          <tr key={m.userId}>
            <td>
              {m.name} {m.userId === me && <span className="pill">you</span>}
            </td>
            <td>{m.email}</td>
            <td>
              <label>
                <span className="visually-hidden">Role of {m.email}</span>
                <Select value={m.role as Role} onChange={(role) => changeRole.mutate({ userId: m.userId, role })} options={ROLE_CHOICES} />
              </label>
            </td>
            <td>{fmtDate(m.createdAt)}</td>
            {m.userId === me ? <td /> : <RowAction label="Remove" onClick={() => remove.ask({ id: m.userId, name: m.email })} />}
          </tr>
        )}
      </ResourceTable>
      <ConfirmRemoval
        removal={remove}
        title={(m) => `Remove ${m.name}?`}
        body="Their sessions and API keys stop working at once."
        confirmLabel="Remove"
      />
      <ConfirmRemoval
        removal={revokeInvite}
        title={(i) => `Revoke the invitation of ${i.name}?`}
        body="Its token stops working at once."
        confirmLabel="Revoke"
      />
    </section>
  );
}
