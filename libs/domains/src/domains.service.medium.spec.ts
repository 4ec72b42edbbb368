import { INestApplicationContext } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { closeAll, errorBodyOf, ownerPrincipal, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { DomainsModule } from './domains.module';
import { DomainsService } from './domains.service';

describe(DomainsService.name, () => {
  let env: TestEnv, app: INestApplicationContext, domains: DomainsService, acme: SeededOrganization;

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([DomainsModule], { SERVICE_HOSTS: 'links.sho.rt, edge.sho.rt' }));
    domains = app.get(DomainsService);
    acme = await seedOrganization(env, { tier: Tier.PRO });
  });
  afterAll(() => closeAll(app, env));

  it.each([
    ["the service's own short-link host", 'sho.rt'],
    ['its upper case', 'SHO.RT'],
    ['a host of SERVICE_HOSTS', 'links.sho.rt'],
    ['its fullwidth letters', '\uff33\uff28\uff2f\uff0e\uff32\uff34'],
    ['it with a soft hyphen', 'sho.rt\u00ad'],
  ])("refuses %s as a customer's domain → 400 validation.domain, nothing written", async (_label, domain) => {
    expect(await errorBodyOf(domains.create(ownerPrincipal(acme), { domain }))).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation: { domain: 'Must be a valid domain name' },
    });
    expect(await env.prisma.domain.count()).toBe(0);
  });

  it('stores the normalised name: two spellings of one name are one domain (409 for the second)', async () => {
    expect((await domains.create(ownerPrincipal(acme), { domain: 'BÜCHER.example' })).domain).toBe('xn--bcher-kva.example');
    expect(await errorBodyOf(domains.create(ownerPrincipal(acme), { domain: 'xn--bcher-kva.EXAMPLE' }))).toEqual({
      error: 'Conflict',
      message: "Domain 'xn--bcher-kva.example' is already in use",
      statusCode: 409,
    });
  });
});
