import { Injectable } from '@nestjs/common';
import { ShapeAgrees } from '@dl/platform/http';
import { AccountsRepository, OrganizationRow, UserWithPassword } from './accounts.repository';
import { InvalidSessionError } from './auth.errors';
import { MeResponseDto } from './me-response.dto';
import { Principal } from './principal';

export function toMeResponse(
  user: Pick<UserWithPassword, 'id' | 'email' | 'name' | 'emailVerifiedAt' | 'createdAt'> & { twoFactorEnabled: boolean },
  principal: Principal,
  memberships: Array<{ role: Principal['role']; organization: OrganizationRow }>,
) {
  const current = memberships.find((m) => m.organization.id === principal.organizationId)!.organization;
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      emailVerified: user.emailVerifiedAt !== null,
      twoFactorEnabled: user.twoFactorEnabled,
      createdAt: user.createdAt.toISOString(),
    },
    organization: { id: current.id, name: current.name, slug: current.slug, tier: current.tier },
    role: principal.role,
    organizations: memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, slug: m.organization.slug, role: m.role })),
  };
}

export const ME_SHAPES_AGREE: [ShapeAgrees<MeResponseDto, ReturnType<typeof toMeResponse>>] = [true];

/** GET/PATCH /auth/me: the signed-in account. */
@Injectable()
export class MeService {
  constructor(private readonly accounts: AccountsRepository) {}

  async me(principal: Principal): Promise<MeResponseDto> {
    const [user, memberships] = await Promise.all([
      this.accounts.findProfile(principal.userId),
      this.accounts.organizationsOfUser(principal.userId),
    ]);
    if (!user || !memberships.some((m) => m.organization.id === principal.organizationId)) throw new InvalidSessionError();
    return toMeResponse(user, principal, memberships);
  }

  async rename(principal: Principal, name: string): Promise<MeResponseDto> {
    await this.accounts.setName(principal.userId, name.trim());
    return this.me(principal);
  }
}
