import { sqlState, Tier } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, SdkFixtures, useTestEnv } from '@dl/testing';
import { PixelSiteRepository } from './pixel-site.repository';
import { RedirectStore } from './redirect-store';

describe(PixelSiteRepository.name, () => {
  const t = useTestEnv({}, async (env, own) => {
    const store = own(new RedirectStore(env.config));
    return { store, repo: new PixelSiteRepository(store) };
  });

  it('a FREE organization’s destinations carry dl_click while it has a pixel site, not while another one has', async () => {
    const fx = new ClickFixtures(t.env.prisma);
    const [acme, other] = [(await fx.organization(Tier.FREE)).id, (await fx.organization(Tier.FREE)).id];
    expect(await t.repo.appendsClickId(acme)).toBe(false);
    const site = await new SdkFixtures(t.env.prisma).site(acme);
    expect(await t.repo.appendsClickId(acme)).toBe(true);
    expect(await t.repo.appendsClickId(other)).toBe(false);
    await t.env.prisma.pixelSite.delete({ where: { id: site.id } });
    expect(await t.repo.appendsClickId(acme)).toBe(false);
  });

  it('every paid plan’s destinations carry dl_click without a pixel site (decisions §23); a downgrade to FREE stops it', async () => {
    const fx = new ClickFixtures(t.env.prisma);
    for (const tier of [Tier.PRO, Tier.BUSINESS, Tier.UNLIMITED]) expect([tier, await t.repo.appendsClickId((await fx.organization(tier)).id)]).toEqual([tier, true]);
    const paid = (await fx.organization(Tier.PRO)).id;
    await t.env.prisma.organization.update({ where: { id: paid }, data: { tier: Tier.FREE } });
    expect(await t.repo.appendsClickId(paid)).toBe(false);
  });

  it('an organization id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.appendsClickId('acme')))).toBe('22P02');
  });
});
