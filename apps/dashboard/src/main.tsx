import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from './api/client';
import { ToastProvider } from './components/toasts';
import { RequireSession } from './components/require-session';
import { Layout } from './components/layout';
import { RouteError } from './components/route-error';
import './app.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, err) => !(err instanceof ApiError && err.status > 0 && err.status < 500) && count < 2,
    },
  },
});

/** Each page is its own chunk (route-level code splitting): the first page stays small. */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

const router = createBrowserRouter(
  [
    { path: '/login', lazy: page(() => import('./pages/login')), errorElement: <RouteError /> },
    { path: '/signup', lazy: page(() => import('./pages/signup')), errorElement: <RouteError /> },
    { path: '/accept-invite', lazy: page(() => import('./pages/accept-invite')), errorElement: <RouteError /> },
    { path: '/verify-email', lazy: page(() => import('./pages/verify-email')), errorElement: <RouteError /> },
    { path: '/forgot-password', lazy: page(() => import('./pages/forgot-password')), errorElement: <RouteError /> },
    { path: '/reset-password', lazy: page(() => import('./pages/reset-password')), errorElement: <RouteError /> },
    {
      element: (
        <RequireSession>
          <Layout />
        </RequireSession>
      ),
      errorElement: <RouteError />,
      children: [
        { index: true, lazy: page(() => import('./pages/links')) },
        { path: 'links', lazy: page(() => import('./pages/links')) },
        { path: 'links/new', lazy: page(() => import('./pages/link-form')) },
        { path: 'links/:id', lazy: page(() => import('./pages/link-page')) },
        { path: 'links/:id/edit', lazy: page(() => import('./pages/link-form')) },
        { path: 'analytics', lazy: page(() => import('./pages/analytics')) },
        { path: 'projects', lazy: page(() => import('./pages/projects')) },
        { path: 'templates', lazy: page(() => import('./pages/templates')) },
        { path: 'domains', lazy: page(() => import('./pages/domains')) },
        { path: 'links/import', lazy: page(() => import('./pages/import')) },
        { path: 'keys', lazy: page(() => import('./pages/keys')) },
        { path: 'members', lazy: page(() => import('./pages/members')) },
        { path: 'audit-log', lazy: page(() => import('./pages/audit-log')) },
        { path: 'scim', lazy: page(() => import('./pages/scim')) },
        { path: 'sso', lazy: page(() => import('./pages/sso')) },
        { path: 'webhooks', lazy: page(() => import('./pages/webhooks')) },
        { path: 'apps', lazy: page(() => import('./pages/apps')) },
        { path: 'events', lazy: page(() => import('./pages/events')) },
        { path: 'conversions', lazy: page(() => import('./pages/conversions')) },
        { path: 'conversions/customers/:id', lazy: page(() => import('./pages/conversions')) },
        { path: 'integrations', lazy: page(() => import('./pages/integrations')) },
        { path: 'reports', lazy: page(() => import('./pages/reports')) },
        { path: 'reports/:period', lazy: page(() => import('./pages/reports')) },
        { path: 'usage', lazy: page(() => import('./pages/usage')) },
        { path: 'account', lazy: page(() => import('./pages/account')) },
        { path: 'organization', lazy: page(() => import('./pages/organization')) },
        { path: 'billing', lazy: page(() => import('./pages/billing')) },
        { path: '*', lazy: page(() => import('./pages/not-found')) },
      ],
    },
  ],
  { basename: '/app' },
);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  </StrictMode>,
);
