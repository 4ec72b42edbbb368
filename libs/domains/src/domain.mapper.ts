import { ShapeAgrees } from '@dl/platform/http';
import { DomainResponseDto } from './domain-response.dto';
import { DomainRecord } from './domains.repository';
import { verificationName, verificationValue } from './dns-verifier';

export function toDomainResponse(d: DomainRecord) {
  return {
    id: d.id,
    domain: d.domain,
    status: d.status,
    verification: { type: 'TXT' as const, name: verificationName(d.domain), value: verificationValue(d.verificationToken) },
    isDefault: d.isDefault === true,
    rootRedirectUrl: d.rootRedirectUrl,
    notFoundUrl: d.notFoundUrl,
    createdAt: d.createdAt.toISOString(),
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    verificationError: d.verificationError,
  };
}

/** Compile-time agreement of the mapper with its response class (see ShapeAgrees). */
export const DOMAIN_SHAPES_AGREE: [ShapeAgrees<DomainResponseDto, ReturnType<typeof toDomainResponse>>] = [true];
