import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { NavigationProgress } from './navigation-progress';
import { VerifyBanner } from './verify-banner';
import { useQueryClient } from '@tanstack/react-query';
import { logout, sessionClaims } from '../api/session';
import { Select } from './ui';

const NAV: Array<[string, string]> = [
  ['/links', 'Links'],
  ['/analytics', 'Analytics'],
  ['/projects', 'Projects'],
  ['/templates', 'Templates'],
  ['/domains', 'Domains'],
  ['/reports', 'Monthly reports'],
  ['/events', 'Event analytics'],
  ['/conversions', 'Conversions'],
  ['/integrations', 'Integrations'],
  ['/webhooks', 'Webhooks'],
  ['/apps', 'Apps & pixels'],
  ['/members', 'Members'],
  ['/keys', 'API keys'],
  ['/audit-log', 'Audit log'],
  ['/sso', 'Single sign-on'],
  ['/scim', 'SCIM'],
  ['/usage', 'Usage'],
  ['/organization', 'Organization'],
  ['/account', 'Account'],
  ['/billing', 'Billing'],
];

const THEMES = [
  ['system', 'System theme'],
  ['light', 'Light'],
  ['dark', 'Dark'],
] as const;
type Theme = (typeof THEMES)[number][0];

function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('dl-theme') as Theme | null) ?? 'system');
  useEffect(() => {
    applyTheme(theme);
    localStorage.setItem('dl-theme', theme);
  }, [theme]);
  return (
    <label className="theme-toggle">
      <span className="visually-hidden">Colour theme</span>
      <Select value={theme} onChange={setTheme} options={THEMES} />
    </label>
  );
}

/** The frame of every signed-in page: navigation (a drawer under 800 px), theme, sign out. */
export function Layout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => setOpen(false), [location.pathname]);
  const claims = sessionClaims();
  const signOut = async () => {
    await logout();
    queryClient.clear();
    navigate('/login', { replace: true });
  };
  return (
    <div className="shell">
      <NavigationProgress />
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <button type="button" className="icon-button menu-button" aria-expanded={open} aria-controls="nav" onClick={() => setOpen((o) => !o)}>
          <span aria-hidden="true">☰</span>
          <span className="visually-hidden">Menu</span>
        </button>
        <NavLink to="/links" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Deeplink
        </NavLink>
        <div className="topbar-end">
          {claims && <span className="role-badge">{claims.role.toLowerCase()}</span>}
          <ThemeToggle />
          <button type="button" className="button ghost" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav id="nav" className={open ? 'sidebar open' : 'sidebar'} aria-label="Main">
        <ul>
          {NAV.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to}>{label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        <VerifyBanner />
        <Outlet />
      </main>
    </div>
  );
}
