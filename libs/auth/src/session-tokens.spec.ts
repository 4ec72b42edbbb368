import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '@dl/platform/config';
import { SessionTokens } from './session-tokens';

const SECRET = 's'.repeat(48);
const config = (over: Partial<AppConfig> = {}) => ({ JWT_SECRET: SECRET, JWT_TTL_SECONDS: 3600, ...over }) as AppConfig;
const claims = { sub: '11111111-1111-4111-8111-111111111111', org: '22222222-2222-4222-8222-222222222222', role: 'ADMIN' as const, sid: '33333333-3333-4333-8333-333333333333' };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe(SessionTokens.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('signs standard HS256 JWTs with @nestjs/jwt: sub, org, role, sid, iat, exp = iat + JWT_TTL_SECONDS', () => {
    const token = new SessionTokens(config()).sign(claims, 1_900_000_000);
    const [header, payload] = token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload, 'base64url').toString())).toEqual({ ...claims, iat: 1_900_000_000, exp: 1_900_003_600 });
    const decoded = new JwtService({ secret: SECRET }).verify(token, { algorithms: ['HS256'], clockTimestamp: 1_900_000_001 });
    expect(decoded).toEqual({ ...claims, iat: 1_900_000_000, exp: 1_900_003_600 });
  });

  it('verifies its own tokens until exp, then refuses them', () => {
    const tokens = new SessionTokens(config());
    const now = Math.floor(Date.now() / 1000);
    const token = tokens.sign(claims, now);
    expect(tokens.verify(token, now + 1)).toEqual(claims);
    expect(tokens.verify(token, now + 3599.5)).toEqual(claims);
    expect(tokens.verify(token, now + 3600)).toBeNull();
    expect(new SessionTokens(config()).verify(token, now + 3600)).toBeNull();
  });

  it('pays the library once per token: later requests with the same token use the memo', () => {
    const tokens = new SessionTokens(config());
    const now = Math.floor(Date.now() / 1000);
    const token = tokens.sign(claims, now);
    const verify = jest.spyOn(JwtService.prototype, 'verify');
    for (let i = 0; i < 5; i++) expect(tokens.verify(token, now + 1)).toEqual(claims);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledWith(token, expect.objectContaining({ algorithms: ['HS256'] }));
  });

  describe('refuses', () => {
    const now = Math.floor(Date.now() / 1000);
    const body = { ...claims, iat: now, exp: now + 60 };
    const other = new JwtService({ secret: SECRET });
    it.each<[string, () => string]>([
      ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(body)}.`],
      ['HS512 with the same secret', () => other.sign(body, { algorithm: 'HS512' })],
      ['another secret', () => new JwtService({ secret: 'x'.repeat(48) }).sign(body)],
      ['a kid in the header', () => other.sign(body, { algorithm: 'HS256', keyid: 'k1' })],
      ['a tampered payload', () => {
        const [h, , s] = other.sign(body).split('.');
        return `${h}.${b64({ ...body, role: 'OWNER' })}.${s}`;
      }],
      ['no exp', () => other.sign({ ...claims })],
      ['iat beyond the leeway', () => other.sign({ ...body, iat: now + 120 })],
      ['nbf beyond the leeway', () => other.sign({ ...body, nbf: now + 120 })],
      ['a role outside the set', () => other.sign({ ...body, role: 'ROOT' })],
      ['a sub that is not a UUID', () => other.sign({ ...body, sub: 'admin' })],
      ['no session id (sid)', () => other.sign({ sub: claims.sub, org: claims.org, role: claims.role, iat: now, exp: now + 60 })],
      ['a sid that is not a UUID', () => other.sign({ ...body, sid: 'x' })],
      ['three parts of garbage', () => 'aaa.bbb.ccc'],
    ])('%s', (_label, token) => {
      expect(new SessionTokens(config()).verify(token(), now)).toBeNull();
    });

    it('accepts iat and nbf within 30 s of clock skew', () => {
      expect(new SessionTokens(config()).verify(other.sign({ ...body, iat: now + 20, nbf: now + 20 }), now)).toEqual(claims);
    });
  });

  it('without JWT_SECRET (outside production) uses one random secret for the whole process', () => {
    const a = new SessionTokens(config({ JWT_SECRET: undefined }));
    const b = new SessionTokens(config({ JWT_SECRET: undefined }));
    const token = a.sign(claims);
    expect(b.verify(token)).toEqual(claims);
    expect(new SessionTokens(config()).verify(token)).toBeNull();
  });
});
