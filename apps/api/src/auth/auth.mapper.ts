import { SignupResult } from '@dl/auth';
import { Tier } from '@dl/platform/db';

export interface SignupResponse {
  accessToken: string;
  expiresIn: number;
  user: { id: string; email: string; name: string };
  organization: { id: string; name: string; slug: string; tier: Tier };
}

export function toSignupResponse(r: SignupResult): SignupResponse {
  return {
    accessToken: r.accessToken,
    expiresIn: r.expiresIn,
    user: { id: r.user.id, email: r.user.email, name: r.user.name },
    organization: { id: r.organization.id, name: r.organization.name, slug: r.organization.slug, tier: r.organization.tier },
  };
}
