import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { sessionClaims } from '../api/session';
import { FormCard } from '../components/resource';
import { Empty, ErrorBanner, Field, fieldErrors, Loading, PageHeader, SelectField } from '../components/ui';
import { TxtRecord } from '../components/txt-record';
import { useAction } from '../components/use-crud';

type Sso = components['schemas']['SsoResponseDto'];
type SsoDomain = components['schemas']['SsoDomainResponseDto'];
type PutSso = components['schemas']['PutSsoDto'];

const STATUS: Record<string, { label: string; tone: string }> = {
  verified: { label: 'Verified', tone: 'ok' },
  pending: { label: 'Waiting for DNS', tone: 'warn' },
};

/** The setting, or null while none is saved (the API answers 404). */
async function loadSso(): Promise<Sso | null> {
  try {
    return await unwrap(api.GET('/api/organization/sso'));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

const parseDomains = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);

/** One email domain: its status and, until verified, the TXT record to add. */
function DomainRow({ d }: { d: SsoDomain }) {
  const status = STATUS[d.status] ?? { label: d.status, tone: '' };
  return (
    <article className="card form domain-card" aria-label={d.domain}>
      <div className="rule-head">
        <h3>{d.domain}</h3>
        <span className={`pill ${status.tone}`} data-testid="sso-domain-status">
          {status.label}
        </span>
      </div>
      {d.status !== 'verified' && (
        <div className="dns-record" role="group" aria-label={`DNS record for ${d.domain}`}>
          <p className="hint">Add this TXT record at the DNS provider of {d.domain}, then press Verify domains.</p>
          <TxtRecord verification={d.verification} testId="sso-txt" />
        </div>
      )}
    </article>
  );
}

const PROTOCOLS = [
  ['oidc', 'OpenID Connect'],
  ['saml', 'SAML 2.0'],
] as const;
const DEFAULT_ROLES = [
  ['VIEWER', 'Viewer'],
  ['MEMBER', 'Member'],
  ['ADMIN', 'Admin'],
] as const;

/**
 * Single sign-on (decisions §25, Owners): the identity provider (OIDC issuer and client, or SAML
 * endpoint and certificate), the email domains with their TXT records, enforcement, the role of
 * new members, and a test sign-in.
 */
export default function SsoPage() {
  const owner = sessionClaims()?.role === 'OWNER';
  const sso = useQuery({ queryKey: ['sso'], queryFn: loadSso, enabled: owner, retry: false });
  const [type, setType] = useState<'oidc' | 'saml'>('oidc');
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [entryPoint, setEntryPoint] = useState('');
  const [certificate, setCertificate] = useState('');
  const [domains, setDomains] = useState('');
  const [enforce, setEnforce] = useState(false);
  const [defaultRole, setDefaultRole] = useState<'ADMIN' | 'MEMBER' | 'VIEWER'>('MEMBER');
  const [testEmail, setTestEmail] = useState('');

  useEffect(() => {
    const s = sso.data;
    if (!s) return;
    setType(s.type);
    setIssuer(s.issuer ?? '');
    setClientId(s.clientId ?? '');
    setEntryPoint(s.entryPoint ?? '');
    setDomains(s.domains.map((d) => d.domain).join('\n'));
    setEnforce(s.enforce);
    setDefaultRole(s.defaultRole);
  }, [sso.data]);

  const save = useAction(
    () => {
      const body: PutSso =
        type === 'oidc'
          ? { type, issuer: issuer.trim(), clientId: clientId.trim(), ...(clientSecret ? { clientSecret } : {}) }
          : { type, entryPoint: entryPoint.trim(), certificate: certificate.trim() || undefined };
      return unwrap(api.PUT('/api/organization/sso', { body: { ...body, domains: parseDomains(domains), enforce, defaultRole } }));
    },
    'Single sign-on saved',
    ['sso'],
  );
  const verify = useAction(
    () => unwrap(api.POST('/api/organization/sso/verify')),
    (r) => {
      const pending = r.domains.filter((d) => d.status !== 'verified').length;
      return pending ? `${pending} domain${pending > 1 ? 's' : ''} still waiting for DNS` : 'Every domain is verified';
    },
    ['sso'],
  );
  useEffect(() => {
    if (save.isSuccess) setClientSecret('');
  }, [save.isSuccess]);

  if (!owner) {
    return (
      <section className="page">
        <PageHeader title="Single sign-on" />
        <Empty title="Owners only">Single sign-on is set by an owner of the organization.</Empty>
      </section>
    );
  }
  if (sso.isPending) return <Loading />;
  const errors = fieldErrors(save.error);
  const saved = sso.data;
  const verifiedDomain = saved?.domains.find((d) => d.status === 'verified')?.domain;
  const testAddress = testEmail.trim() || (verifiedDomain ? `you@${verifiedDomain}` : '');
  return (
    <section className="page">
      <PageHeader title="Single sign-on" />
      <ErrorBanner error={sso.error} />
      <FormCard
        title="Identity provider"
        intro={<p className="hint">Members whose email is of a verified domain sign in through your identity provider; a first sign-in creates their membership.</p>}
        error={save.error}
        fields={['type', 'issuer', 'clientId', 'clientSecret', 'entryPoint', 'certificate', 'domains', 'enforce', 'defaultRole']}
        submitLabel={save.isPending ? 'Saving…' : 'Save'}
        busy={save.isPending}
        onSubmit={() => save.mutate(undefined)}
      >
        <div className="form-row">
          <SelectField label="Protocol" error={errors.type} name="type" value={type} onChange={setType} options={PROTOCOLS} />
          <SelectField label="Role of new members" error={errors.defaultRole} name="defaultRole" value={defaultRole} onChange={setDefaultRole} options={DEFAULT_ROLES} />
        </div>
        {type === 'oidc' ? (
          <>
            <Field label="Issuer" error={errors.issuer} hint="The https URL your provider lists as issuer, e.g. https://login.acme.com">
              {(p) => <input {...p} name="issuer" type="url" value={issuer} onChange={(e) => setIssuer(e.target.value)} spellCheck={false} />}
            </Field>
            <div className="form-row">
              <Field label="Client id" error={errors.clientId}>
                {(p) => <input {...p} name="clientId" value={clientId} onChange={(e) => setClientId(e.target.value)} spellCheck={false} autoComplete="off" />}
              </Field>
              <Field label="Client secret" error={errors.clientSecret} hint={saved?.type === 'oidc' ? 'Stored and never shown; leave empty to keep it' : undefined}>
                {(p) => (
                  <input
                    {...p}
                    name="clientSecret"
                    type="password"
                    value={clientSecret}
                    placeholder={saved?.type === 'oidc' ? '••••••••' : ''}
                    onChange={(e) => setClientSecret(e.target.value)}
                    autoComplete="new-password"
                  />
                )}
              </Field>
            </div>
            <p className="hint">
              Redirect URI to register at the provider: <code>{`${window.location.origin}/auth/sso/oidc/callback`}</code>
            </p>
          </>
        ) : (
          <>
            <Field label="Sign-in URL" error={errors.entryPoint} hint="Your identity provider's SAML single sign-on URL (https)">
              {(p) => <input {...p} name="entryPoint" type="url" value={entryPoint} onChange={(e) => setEntryPoint(e.target.value)} spellCheck={false} />}
            </Field>
            <Field label="Signing certificate" error={errors.certificate} hint={saved?.type === 'saml' ? 'Stored; paste again to replace it' : 'PEM'}>
              {(p) => <textarea {...p} name="certificate" rows={4} value={certificate} onChange={(e) => setCertificate(e.target.value)} spellCheck={false} />}
            </Field>
            <p className="hint">
              Assertion consumer service URL: <code>{`${window.location.origin}/auth/sso/saml/acs`}</code>
            </p>
          </>
        )}
        <Field label="Email domains" error={errors.domains} hint="One per line; each is verified by a TXT record">
          {(p) => <textarea {...p} name="domains" rows={3} value={domains} onChange={(e) => setDomains(e.target.value)} spellCheck={false} placeholder="acme.com" />}
        </Field>
        <label className="checkbox">
          <input type="checkbox" name="enforce" checked={enforce} onChange={(e) => setEnforce(e.target.checked)} />
          Require single sign-on: no password sign-in or reset for emails of the verified domains
        </label>
      </FormCard>

      {saved && (
        <div className="card form">
          <div className="rule-head">
            <h2>Email domains</h2>
            <button type="button" className="button" onClick={() => verify.mutate(undefined)} disabled={verify.isPending || saved.domains.length === 0}>
              {verify.isPending ? 'Checking…' : 'Verify domains'}
            </button>
          </div>
          <ErrorBanner error={verify.error} />
          {saved.domains.length === 0 ? (
            <Empty title="No email domains">Add the domains of your members' email addresses above.</Empty>
          ) : (
            saved.domains.map((d) => <DomainRow key={d.domain} d={d} />)
          )}
        </div>
      )}

      {saved && (
        <div className="card form">
          <h2>Test sign-in</h2>
          <p className="hint">Opens your identity provider in a new tab as a member would. Signing in there signs this browser in as that member.</p>
          <div className="form-row">
            <Field label="Email" hint={verifiedDomain ? undefined : 'Verify a domain first'}>
              {(p) => <input {...p} name="testEmail" type="email" value={testEmail} placeholder={testAddress || 'you@acme.com'} onChange={(e) => setTestEmail(e.target.value)} />}
            </Field>
          </div>
          <div className="form-actions">
            {testAddress ? (
              <a className="button" href={`/auth/sso/start?email=${encodeURIComponent(testAddress)}`} target="_blank" rel="noopener noreferrer">
                Test sign-in
              </a>
            ) : (
              <button type="button" className="button" disabled>
                Test sign-in
              </button>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
