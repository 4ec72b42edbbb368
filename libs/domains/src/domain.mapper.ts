import { DomainResponse } from './domain.dto';
import { DomainRecord } from './domains.repository';
import { verificationName, verificationValue } from './dns-verifier';

export function toDomainResponse(d: DomainRecord): DomainResponse {
  return {
    id: d.id,
    domain: d.domain,
    status: d.status,
    verification: { type: 'TXT', name: verificationName(d.domain), value: verificationValue(d.verificationToken) },
    isDefault: d.isDefault === true,
    rootRedirectUrl: d.rootRedirectUrl,
    notFoundUrl: d.notFoundUrl,
    createdAt: d.createdAt.toISOString(),
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    verificationError: d.verificationError,
  };
}
