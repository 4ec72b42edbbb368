import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The key outside production when JWT_SECRET is unset (production refuses to start without it). */
const DEVELOPMENT_KEY = 'dl-sso-development-key';

/**
 * Encrypts the identity provider's client secret at rest (AES-256-GCM, key = SHA-256 of a label
 * and JWT_SECRET): `v1.<iv>.<tag>.<ciphertext>`, base64url. The secret is never answered; only
 * the OIDC token request reads it back.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(jwtSecret: string | undefined) {
    this.key = createHash('sha256').update(`dl-sso-client-secret:${jwtSecret ?? DEVELOPMENT_KEY}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** The plain secret, or null when the value was sealed under another key or altered. */
  open(sealed: string): string | null {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
