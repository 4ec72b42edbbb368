import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { ValidationError } from '@dl/platform/http';

/** What an organization's SSO settings say about its SAML identity provider (decisions §25). */
export interface SamlSettingsInput {
  idpMetadataXml?: string | null;
  entryPoint?: string | null;
  certificate?: string | null;
}

/** An identity provider ready to use: where to send the AuthnRequest and whose signature to trust. */
export interface SamlConnection {
  /** The IdP's SingleSignOnService location. */
  entryPoint: string;
  /** How the AuthnRequest travels there: a redirect (query string) or an auto-posted form. */
  binding: 'redirect' | 'post';
  /** The IdP's signing certificates, PEM (several during a key rollover). */
  certificates: string[];
  /** The IdP's entity id (from metadata): the assertions' Issuer must be this one. */
  idpEntityId: string | null;
}

/** Rules the settings are checked against: `SSO_ALLOW_HTTP_HOSTS` as a list of `host:port`. */
export interface SamlConnectionRules {
  allowHttpHosts: readonly string[];
}

const BINDING = {
  redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
  post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
} as const;

const MAX_METADATA_CHARS = 512 * 1024;
const MAX_CERTIFICATE_CHARS = 16 * 1024;

/**
 * The connection described by the settings: `idpMetadataXml` when given (its HTTP-Redirect or
 * HTTP-POST SingleSignOnService and its signing certificates), otherwise `entryPoint` +
 * `certificate`. Bad input is a 400 `Validation error` naming the field.
 */
export function resolveSamlConnection(input: SamlSettingsInput, rules: SamlConnectionRules): SamlConnection {
  if (input.idpMetadataXml != null && input.idpMetadataXml !== '') {
    const parsed = parseIdpMetadata(input.idpMetadataXml);
    if (typeof parsed === 'string') throw new ValidationError({ idpMetadataXml: parsed });
    const why = entryPointProblem(parsed.entryPoint, rules);
    if (why) throw new ValidationError({ idpMetadataXml: `SingleSignOnService ${why.replace(/^Must/, 'must')}` });
    return parsed;
  }
  const problems: Record<string, string> = {};
  const entryPoint = typeof input.entryPoint === 'string' ? input.entryPoint.trim() : '';
  const entryPointWhy = entryPoint ? entryPointProblem(entryPoint, rules) : 'Must be an https URL (or give idpMetadataXml)';
  if (entryPointWhy) problems.entryPoint = entryPointWhy;
  const certificate = typeof input.certificate === 'string' ? toPem(input.certificate) : null;
  if (!certificate) problems.certificate = 'Must be an X.509 certificate (PEM or base64)';
  if (Object.keys(problems).length) throw new ValidationError(problems);
  return { entryPoint, binding: 'redirect', certificates: [certificate!], idpEntityId: null };
}

/**
 * Why `url` may not be an identity provider's endpoint, or null: it must be an absolute https URL,
 * or http on a `host:port` listed in SSO_ALLOW_HTTP_HOSTS (local providers and tests).
 */
export function entryPointProblem(url: string, rules: SamlConnectionRules): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Must be an https URL';
  }
  if (url.length > 2048 || parsed.username || parsed.password) return 'Must be an https URL';
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:') {
    const hostPort = `${parsed.hostname}:${parsed.port || '80'}`.toLowerCase();
    if (rules.allowHttpHosts.some((h) => h.trim().toLowerCase() === hostPort)) return null;
  }
  return 'Must be an https URL';
}

/** A certificate given as PEM or as its base64 body, as normalised PEM; null when it is not one. */
export function toPem(text: string): string | null {
  if (text.length > MAX_CERTIFICATE_CHARS) return null;
  const body = text
    .replace(/-----BEGIN CERTIFICATE-----|-----END CERTIFICATE-----/g, '')
    .replace(/\s+/g, '');
  if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    return null;
  }
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`;
}

/**
 * The first IDPSSODescriptor of an EntityDescriptor (or of an EntitiesDescriptor's first one that
 * has one): its SingleSignOnService (HTTP-Redirect preferred, HTTP-POST otherwise), its signing
 * certificates (KeyDescriptor use="signing" or without `use`) and the entity id. A string says
 * what is wrong.
 */
export function parseIdpMetadata(xml: string): SamlConnection | string {
  if (typeof xml !== 'string' || xml.length > MAX_METADATA_CHARS) return 'Must be SAML metadata XML of at most 512 KB';
  // No DTDs: entity expansion is refused outright, not parsed.
  if (/<!DOCTYPE/i.test(xml)) return 'Must be SAML metadata XML without a DOCTYPE';
  let failed = false;
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: () => (failed = true), fatalError: () => (failed = true) },
  }).parseFromString(xml, 'text/xml');
  if (failed || !doc?.documentElement) return 'Must be well-formed XML';
  const descriptor = elements(doc.documentElement, 'IDPSSODescriptor')[0];
  if (!descriptor) return 'Must contain an IDPSSODescriptor';
  const entity = descriptor.parentNode as Element | null;
  const idpEntityId = entity?.localName === 'EntityDescriptor' ? entity.getAttribute('entityID') || null : null;
  const services = elements(descriptor, 'SingleSignOnService');
  const redirect = services.find((s) => s.getAttribute('Binding') === BINDING.redirect);
  const post = services.find((s) => s.getAttribute('Binding') === BINDING.post);
  const service = redirect ?? post;
  const entryPoint = service?.getAttribute('Location')?.trim();
  if (!service || !entryPoint) return 'Must contain an HTTP-Redirect or HTTP-POST SingleSignOnService';
  const certificates = elements(descriptor, 'KeyDescriptor')
    .filter((k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing')
    .flatMap((k) => elements(k, 'X509Certificate'))
    .map((c) => toPem(c.textContent ?? ''));
  if (!certificates.length) return 'Must contain a signing X509Certificate';
  if (certificates.some((c) => c === null)) return 'Must contain valid X509Certificate values';
  return { entryPoint, binding: service === redirect ? 'redirect' : 'post', certificates: certificates as string[], idpEntityId };
}

function elements(root: Element, localName: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Element) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      if (el.localName === localName) found.push(el);
      walk(el);
    }
  };
  walk(root);
  return found;
}
