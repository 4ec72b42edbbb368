import { sqlState } from '@dl/platform/db';
import { ClickFixtures, createTestEnv, rejectionOf, SdkFixtures, TestEnv } from '@dl/testing';
import { PixelSiteRepository } from './pixel-site.repository';
import { RedirectStore } from './redirect-store';

describe(PixelSiteRepository.name, () => {
  let env: TestEnv;
  let store: RedirectStore;
  let repo: PixelSiteRepository;

  beforeAll(async () => {
    env = await createTestEnv();
    store = new RedirectStore(env.config);
    repo = new PixelSiteRepository(store);
  });
  afterAll(async () => {
    await store?.onModuleDestroy();
    await env?.teardown();
  });

  it("answers whether the organization has a pixel site, not whether another one has", async () => {
    const fx = new ClickFixtures(env.prisma);
    const [acme, other] = [(await fx.organization()).id, (await fx.organization()).id];
    expect(await repo.hasPixelSite(acme)).toBe(false);
    const site = await new SdkFixtures(env.prisma).site(acme);
    expect(await repo.hasPixelSite(acme)).toBe(true);
    expect(await repo.hasPixelSite(other)).toBe(false);
    await env.prisma.pixelSite.delete({ where: { id: site.id } });
    expect(await repo.hasPixelSite(acme)).toBe(false);
  });

  it('an organization id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(repo.hasPixelSite('acme')))).toBe('22P02');
  });
});
