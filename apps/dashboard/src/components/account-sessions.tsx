import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { logout } from '../api/session';
import { fmtDateTime } from './format';
import { FormCard } from './resource';
import { ErrorBanner, Field, fieldErrors } from './ui';
import { useAction } from './use-crud';

/** "Chrome on Linux" from a user agent (display only; the full string is the cell's title). */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const os = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (!browser) return userAgent.slice(0, 60);
  return os ? `${browser} on ${os}` : browser;
}

/**
 * The account's signed-in dashboards (decisions §20): each with its device, IP and times, the
 * current one marked; "Sign out" ends one, and ending the current one signs this browser out.
 */
export function AccountSessions() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => unwrap(api.GET('/auth/sessions')) });
  const revoke = useAction(
    (s: { id: string; current: boolean }) => unwrap(api.DELETE('/auth/sessions/{id}', { params: { path: { id: s.id } } })),
    'Session signed out',
    ['sessions'],
  );
  const signOut = (s: { id: string; current: boolean }) =>
    revoke.mutate(s, {
      onSuccess: async () => {
        if (!s.current) return;
        await logout();
        queryClient.clear();
        navigate('/login', { replace: true });
      },
    });
  const list = sessions.data?.sessions;
  return (
    <div className="card table-wrap">
      <h2>Sessions</h2>
      <p className="hint">Browsers signed in to your account. Signing one out ends it within a minute everywhere.</p>
      {sessions.error && <p>Your sessions could not be loaded.</p>}
      <ErrorBanner error={sessions.error ?? revoke.error} />
      {sessions.isPending ? (
        <p role="status">Loading your sessions…</p>
      ) : list && list.length === 0 ? (
        <p>No active sessions.</p>
      ) : list ? (
        <table className="plain" aria-label="Sessions" data-testid="sessions">
          <thead>
            <tr>
              <th>Device</th>
              <th className="wide-only">IP</th>
              <th className="wide-only">Signed in</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.map((s) => (
              <tr key={s.id} data-current={s.current || undefined}>
                <td title={s.userAgent ?? undefined}>
                  {deviceOf(s.userAgent)} {s.current && <span className="pill ok">This session</span>}
                  <div className="hint narrow-only">
                    {s.ip ?? 'IP unknown'} · signed in {fmtDateTime(s.createdAt)}
                  </div>
                </td>
                <td className="wide-only">{s.ip ?? '—'}</td>
                <td className="wide-only">{fmtDateTime(s.createdAt)}</td>
                <td>{fmtDateTime(s.lastUsedAt)}</td>
                <td className="num">
                  <button
                    type="button"
                    className="button small danger"
                    disabled={revoke.isPending}
                    aria-label={s.current ? 'Sign out this session' : `Sign out the session of ${deviceOf(s.userAgent)}, last used ${fmtDateTime(s.lastUsedAt)}`}
                    onClick={() => signOut(s)}
                  >
                    Sign out
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

/** Change of password: the API's validation next to each field; the other sessions end (decisions §20). */
export function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [done, setDone] = useState(false);
  const change = useAction(
    () => unwrap(api.POST('/auth/change-password', { body: { currentPassword, newPassword } })),
    'Password changed',
    ['sessions'],
  );
  const errors = fieldErrors(change.error);
  const submit = () => {
    setDone(false);
    change.mutate(undefined, {
      onSuccess: () => {
        setCurrent('');
        setNew('');
        setDone(true);
      },
    });
  };
  return (
    <FormCard
      title="Change password"
      intro={<p className="hint">Changing your password signs out every other session of your account; this one stays signed in.</p>}
      error={change.error}
      fields={['currentPassword', 'newPassword']}
      submitLabel="Change password"
      busy={change.isPending}
      onSubmit={submit}
    >
      {done && (
        <p className="notice-banner" role="status">
          Password changed. Your other sessions have been signed out.
        </p>
      )}
      <Field label="Current password" error={errors.currentPassword}>
        {(p) => <input {...p} type="password" name="currentPassword" value={currentPassword} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />}
      </Field>
      <Field label="New password" error={errors.newPassword}>
        {(p) => <input {...p} type="password" name="newPassword" value={newPassword} onChange={(e) => setNew(e.target.value)} autoComplete="new-password" />}
      </Field>
    </FormCard>
  );
}
