import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A private key and its self-signed certificate, PEM. */
export interface SamlTestKeyPair {
  privateKey: string;
  certificate: string;
}

let cached: Promise<{ idp: SamlTestKeyPair; stranger: SamlTestKeyPair }> | undefined;

/**
 * The test IdP's signing key pair and a stranger's (for "signed by someone else"), made once per
 * test process with the openssl CLI (node:crypto makes keys but not X.509 certificates).
 */
export function samlTestKeys(): Promise<{ idp: SamlTestKeyPair; stranger: SamlTestKeyPair }> {
  cached ??= Promise.all([selfSigned('test-idp'), selfSigned('stranger-idp')]).then(([idp, stranger]) => ({ idp, stranger }));
  return cached;
}

async function selfSigned(commonName: string): Promise<SamlTestKeyPair> {
  const dir = await mkdtemp(join(tmpdir(), 'saml-idp-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2',
      '-subj', `/CN=${commonName}`, '-keyout', key, '-out', cert,
    ]);
    return { privateKey: await readFile(key, 'utf8'), certificate: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
