import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteError() {
  const err = useRouteError();
  const text = isRouteErrorResponse(err) ? `${err.status} ${err.statusText}` : err instanceof Error ? err.message : 'Something went wrong';
  return (
    <main className="auth-page">
      <div className="card auth-card">
        <h1>Something went wrong</h1>
        <p className="error-text">{text}</p>
        <p>
          <Link to="/links">Back to links</Link> or <button type="button" className="link-button" onClick={() => window.location.reload()}>reload</button>.
        </p>
      </div>
    </main>
  );
}
