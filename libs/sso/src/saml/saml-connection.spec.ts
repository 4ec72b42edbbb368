import { ValidationError } from '@dl/platform/http';
import { samlTestKeys } from '@dl/testing';
import { parseAllowHttpHosts } from '../sso-urls';
import { resolveSamlConnection, toPem } from './saml-connection';

const RULES = { allowHttpHosts: parseAllowHttpHosts('127.0.0.1:8443, idp.local:80') };
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

function metadata(options: { cert: string; services: [string, string][]; use?: string; entityId?: string }): string {
  const body = options.cert.replace(/-----[A-Z ]+-----|\s/g, '');
  return (
    `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${options.entityId ?? 'https://idp.example/entity'}">` +
    '<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
    `<md:KeyDescriptor${options.use ? ` use="${options.use}"` : ''}><ds:KeyInfo><ds:X509Data><ds:X509Certificate>\n${body}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    options.services.map(([binding, location]) => `<md:SingleSignOnService Binding="${binding}" Location="${location}"/>`).join('') +
    '</md:IDPSSODescriptor></md:EntityDescriptor>'
  );
}

function validation(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err.options.validation;
    throw err;
  }
  return 'accepted';
}

describe('resolveSamlConnection', () => {
  let cert: string;
  beforeAll(async () => ({ certificate: cert } = (await samlTestKeys()).idp));

  it('reads the HTTP-Redirect SingleSignOnService, the signing certificate and the entity id from metadata', () => {
    const xml = metadata({ cert, use: 'signing', services: [[POST, 'https://idp.example/post'], [REDIRECT, 'https://idp.example/redirect']] });
    expect(resolveSamlConnection({ idpMetadataXml: xml }, RULES)).toEqual({
      entryPoint: 'https://idp.example/redirect',
      certificates: [toPem(cert)],
      idpEntityId: 'https://idp.example/entity',
    });
  });

  it('takes a KeyDescriptor without `use` as a signing key, and allows http for a host of SSO_ALLOW_HTTP_HOSTS', () => {
    const xml = metadata({ cert, services: [[REDIRECT, 'http://127.0.0.1:8443/sso']] });
    expect(resolveSamlConnection({ idpMetadataXml: xml }, RULES)).toMatchObject({ entryPoint: 'http://127.0.0.1:8443/sso', certificates: [toPem(cert)] });
  });

  it.each([
    ['not XML', 'hello', 'Must be well-formed XML'],
    ['unclosed XML', '<md:EntityDescriptor xmlns:md="urn:x"><md:IDPSSODescriptor>', 'Must be well-formed XML'],
    ['a DOCTYPE (entity expansion)', '<!DOCTYPE x [<!ENTITY a "b">]><x/>', 'Must be SAML metadata XML without a DOCTYPE'],
    ['no IDPSSODescriptor', '<EntityDescriptor entityID="x"/>', 'Must contain an IDPSSODescriptor'],
  ])('refuses metadata that is %s', (_case, xml, message) => {
    expect(validation(() => resolveSamlConnection({ idpMetadataXml: xml }, RULES))).toEqual({ idpMetadataXml: message });
  });

  it('refuses metadata without a usable service, certificate, or with an http endpoint', () => {
    expect(validation(() => resolveSamlConnection({ idpMetadataXml: metadata({ cert, services: [[POST, 'https://idp.example/post']] }) }, RULES))).toEqual({
      idpMetadataXml: 'Must contain an HTTP-Redirect SingleSignOnService',
    });
    expect(validation(() => resolveSamlConnection({ idpMetadataXml: metadata({ cert, use: 'encryption', services: [[REDIRECT, 'https://idp.example/r']] }) }, RULES))).toEqual({
      idpMetadataXml: 'Must contain a signing X509Certificate',
    });
    expect(validation(() => resolveSamlConnection({ idpMetadataXml: metadata({ cert: 'QUJD', services: [[REDIRECT, 'https://idp.example/r']] }) }, RULES))).toEqual({
      idpMetadataXml: 'Must contain valid X509Certificate values',
    });
    expect(validation(() => resolveSamlConnection({ idpMetadataXml: metadata({ cert, services: [[REDIRECT, 'http://idp.example/r']] }) }, RULES))).toEqual({
      idpMetadataXml: 'SingleSignOnService must be an https URL',
    });
  });

  it('accepts an entry point and a certificate given as PEM or as its base64 body', () => {
    const body = cert.replace(/-----[A-Z ]+-----|\s/g, '');
    for (const certificate of [cert, body]) {
      expect(resolveSamlConnection({ entryPoint: 'https://idp.example/sso', certificate }, RULES)).toEqual({
        entryPoint: 'https://idp.example/sso',
          certificates: [toPem(cert)],
        idpEntityId: null,
      });
    }
  });

  it('names each bad field of an entry point and certificate', () => {
    expect(validation(() => resolveSamlConnection({ entryPoint: 'http://idp.example/sso', certificate: 'not a cert' }, RULES))).toEqual({
      entryPoint: 'Must be an https URL',
      certificate: 'Must be an X.509 certificate (PEM or base64)',
    });
    expect(validation(() => resolveSamlConnection({ entryPoint: 'http://127.0.0.1:8444/sso', certificate: cert }, RULES))).toEqual({ entryPoint: 'Must be an https URL' });
    expect(validation(() => resolveSamlConnection({}, RULES))).toEqual({
      entryPoint: 'Must be an https URL',
      certificate: 'Must be an X.509 certificate (PEM or base64)',
    });
  });
});
