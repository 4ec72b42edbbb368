import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, SdkFixtures, useTestEnv } from '@dl/testing';
import { PixelSiteRepository } from './pixel-site.repository';
import { RedirectStore } from './redirect-store';

describe(PixelSiteRepository.name, () => {
  const t = useTestEnv({}, async (env, own) => {
    const store = own(new RedirectStore(env.config));
    return { store, repo: new PixelSiteRepository(store) };
  });

  it("answers whether the organization has a pixel site, not whether another one has", async () => {
    const fx = new ClickFixtures(t.env.prisma);
    const [acme, other] = [(await fx.organization()).id, (await fx.organization()).id];
    expect(await t.repo.hasPixelSite(acme)).toBe(false);
    const site = await new SdkFixtures(t.env.prisma).site(acme);
    expect(await t.repo.hasPixelSite(acme)).toBe(true);
    expect(await t.repo.hasPixelSite(other)).toBe(false);
    await t.env.prisma.pixelSite.delete({ where: { id: site.id } });
    expect(await t.repo.hasPixelSite(acme)).toBe(false);
  });

  it('an organization id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.hasPixelSite('acme')))).toBe('22P02');
  });
});
