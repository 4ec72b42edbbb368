import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getToken, onSessionChange, refreshSession } from '../api/session';

/** Pages behind a session: restores it from the refresh cookie on reload, else sends to /login. */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [state, setState] = useState<'checking' | 'in' | 'out'>(getToken() ? 'in' : 'checking');
  useEffect(() => {
    if (state === 'checking') void refreshSession().then((t) => setState(t ? 'in' : 'out'));
    return onSessionChange((t) => setState(t ? 'in' : 'out'));
  }, [state]);
  if (state === 'checking') return <div className="page-loading" aria-busy="true">Loading…</div>;
  if (state === 'out') return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
