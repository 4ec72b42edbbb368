import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { ValidationError } from '@dl/platform/http';
import { checkIdpUrl, IDP_URL_MESSAGE } from '../sso-urls';

/** What an organization's SSO settings say about its SAML identity provider (decisions §25). */
export interface SamlSettingsInput {
  idpMetadataXml?: string | null;
  entryPoint?: string | null;
  certificate?: string | null;
}

/** An identity provider ready to use: where to send the AuthnRequest and whose signature to trust. */
export interface SamlConnection {
  /** The IdP's HTTP-Redirect SingleSignOnService location. */
  entryPoint: string;
  /** The IdP's signing certificates, PEM (several during a key rollover). */
  certificates: string[];
  /** The IdP's entity id (from metadata): the assertions' Issuer must be this one. */
  idpEntityId: string | null;
}

/** Rules the settings are checked against: `SSO_ALLOW_HTTP_HOSTS` (parseAllowHttpHosts). */
export interface SamlConnectionRules {
  allowHttpHosts: ReadonlySet<string>;
}

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

const MAX_METADATA_CHARS = 512 * 1024;
const MAX_CERTIFICATE_CHARS = 16 * 1024;

/**
 * The connection described by the settings: `idpMetadataXml` when given (its HTTP-Redirect
 * SingleSignOnService and its signing certificates), otherwise `entryPoint` +
 * `certificate`. Bad input is a 400 `Validation error` naming the field.
 */
export function resolveSamlConnection(input: SamlSettingsInput, rules: SamlConnectionRules): SamlConnection {
  if (input.idpMetadataXml != null && input.idpMetadataXml !== '') {
    const parsed = parseIdpMetadata(input.idpMetadataXml);
    if (typeof parsed === 'string') throw new ValidationError({ idpMetadataXml: parsed });
    if (!checkIdpUrl(parsed.entryPoint, rules.allowHttpHosts)) throw new ValidationError({ idpMetadataXml: 'SingleSignOnService must be an https URL' });
    return parsed;
  }
  const problems: Record<string, string> = {};
  const entryPoint = typeof input.entryPoint === 'string' ? input.entryPoint.trim() : '';
  if (!checkIdpUrl(entryPoint, rules.allowHttpHosts)) problems.entryPoint = IDP_URL_MESSAGE;
  const certificate = typeof input.certificate === 'string' ? toPem(input.certificate) : null;
  if (!certificate) problems.certificate = 'Must be an X.509 certificate (PEM or base64)';
  if (Object.keys(problems).length) throw new ValidationError(problems);
  return { entryPoint, certificates: [certificate!], idpEntityId: null };
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
 * has one): its HTTP-Redirect SingleSignOnService (how our AuthnRequest travels), its signing
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
  const service = elements(descriptor, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const entryPoint = service?.getAttribute('Location')?.trim();
  if (!entryPoint) return 'Must contain an HTTP-Redirect SingleSignOnService';
  const certificates = elements(descriptor, 'KeyDescriptor')
    .filter((k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing')
    .flatMap((k) => elements(k, 'X509Certificate'))
    .map((c) => toPem(c.textContent ?? ''));
  if (!certificates.length) return 'Must contain a signing X509Certificate';
  if (certificates.some((c) => c === null)) return 'Must contain valid X509Certificate values';
  return { entryPoint, certificates: certificates as string[], idpEntityId };
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
