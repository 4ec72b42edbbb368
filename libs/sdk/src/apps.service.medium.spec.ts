import { INestApplicationContext } from '@nestjs/common';
import { closeAll, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { AppsService } from './apps.service';
import { SdkManagementModule } from './sdk.module';

describe(AppsService.name, () => {
  let env: TestEnv, app: INestApplicationContext, apps: AppsService, acme: SeededOrganization;

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([SdkManagementModule]));
    apps = app.get(AppsService);
    acme = await seedOrganization(env);
  });
  afterAll(() => closeAll(app, env));

  it('stores the App Store URL as its WHATWG href and fingerprints in upper case; the token is shown once', async () => {
    const created = await apps.create(acme.organization.id, {
      name: 'Shop',
      platform: 'ios',
      bundleId: 'com.example.shop',
      appStoreUrl: 'https://apps.apple.com/fr/app/café/id1',
      sha256Fingerprints: ['ab:cd'],
    } as never);
    expect(created).toMatchObject({ name: 'Shop', platform: 'ios', appStoreUrl: 'https://apps.apple.com/fr/app/caf%C3%A9/id1', appToken: expect.stringMatching(/^dla_/) });
    const row = await env.prisma.app.findUniqueOrThrow({ where: { id: created.id } });
    expect([row.appStoreUrl, row.sha256Fingerprints]).toEqual(['https://apps.apple.com/fr/app/caf%C3%A9/id1', ['AB:CD']]);
    expect((await apps.list(acme.organization.id)).map((a) => a.id)).toEqual([created.id]);
    expect(JSON.stringify(await apps.list(acme.organization.id))).not.toContain(created.appToken);
  });
});
