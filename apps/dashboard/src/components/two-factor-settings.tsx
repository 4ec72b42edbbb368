import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { ErrorBanner, Field, fieldErrors } from './ui';
import { useAction } from './use-crud';

/**
 * Two-factor authentication of the signed-in account (decisions §20): set-up shows the QR code
 * (and the secret to type), a code confirms it, the recovery codes are shown once; turning it off
 * takes a code or a recovery code.
 */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const [setup, setSetup] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const start = useAction(() => unwrap(api.POST('/auth/2fa/setup')), 'Scan the QR code with your authenticator app', []);
  const enable = useAction(() => unwrap(api.POST('/auth/2fa/enable', { body: { code: code.trim() } })), 'Two-factor authentication is on', ['me']);
  const disable = useAction(
    () => unwrap(api.POST('/auth/2fa/disable', { body: /^\d{6}$/.test(code.trim()) ? { code: code.trim() } : { recoveryCode: code.trim() } })),
    'Two-factor authentication is off',
    ['me'],
  );
  const error = start.error ?? enable.error ?? disable.error;
  const errors = fieldErrors(error);

  if (recovery) {
    return (
      <div className="secret-once" role="region" aria-label="Recovery codes">
        <p>
          <strong>Your recovery codes</strong> — save them now: they are shown only once. Each one signs you in once if you lose your phone.
        </p>
        <ul className="recovery-codes">
          {recovery.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <button type="button" className="button" onClick={() => setRecovery(null)}>
          I have saved them
        </button>
      </div>
    );
  }

  if (enabled) {
    return (
      <form className="form" onSubmit={(e) => (e.preventDefault(), disable.mutate(undefined, { onSuccess: () => setCode('') }))} noValidate>
        <p>
          <span className="pill ok">On</span> Signing in asks for a code from your authenticator app.
        </p>
        <ErrorBanner error={error} fields={['code', 'recoveryCode']} />
        <Field label="Code or recovery code, to turn it off" error={errors.code ?? errors.recoveryCode}>
          {(p) => <input {...p} name="disableCode" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" />}
        </Field>
        <div className="form-actions">
          <button className="button danger" type="submit" disabled={disable.isPending || !code.trim()}>
            Turn off
          </button>
        </div>
      </form>
    );
  }

  if (!setup) {
    return (
      <div className="form">
        <p>
          <span className="pill">Off</span> Add a second step to signing in: a 6-digit code from an authenticator app.
        </p>
        <ErrorBanner error={error} />
        <div className="form-actions">
          <button type="button" className="button primary" disabled={start.isPending} onClick={() => start.mutate(undefined, { onSuccess: (s) => setSetup(s) })}>
            Set up two-factor authentication
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="form"
      onSubmit={(e) => (e.preventDefault(), enable.mutate(undefined, { onSuccess: (r) => (setRecovery(r.recoveryCodes), setSetup(null), setCode('')) }))}
      noValidate
    >
      <p>Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
      <img className="totp-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`} alt="QR code of your two-factor secret" width={200} height={200} />
      <p className="hint">
        Cannot scan? Type this key: <code data-testid="totp-secret">{setup.secret}</code>
      </p>
      <ErrorBanner error={error} fields={['code']} />
      <Field label="Code" error={errors.code}>
        {(p) => (
          <input {...p} name="totpCode" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
        )}
      </Field>
      <div className="form-actions">
        <button className="button primary" type="submit" disabled={enable.isPending || code.trim().length !== 6}>
          Turn on
        </button>
        <button type="button" className="button ghost" onClick={() => setSetup(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
