import { startDnsServer, useSuite } from '@dl/testing';
import { openPage, openSection, signUpOwner } from './world';

// Branded domains, the link form's every control and the CSV import, in Chromium against
// the real apps. A loopback DNS server answers the domains' TXT lookups. One organization,
// signed up once; each test builds on the one before (the domain is the links' default).
describe('dashboard: domains, every link control, CSV import (Chromium)', () => {
  const t = useSuite(async (own) => {
    const dns = own(await startDnsServer());
    const { w, context, page } = await openPage(own, { DNS_SERVERS: dns.address });
    return { dns, w, context, page, organizationId: (await signUpOwner(w, page, 'Northwind Outdoor')).organizationId };
  }, 120_000);

  it('adds a domain, shows its TXT record, verifies it, makes it the default, sets its redirects and deletes one after a confirmation', async () => {
    await t.page.getByRole('link', { name: 'Domains' }).click();
    await t.page.getByRole('heading', { name: 'No domains yet' }).waitFor();

    const add = t.page.getByRole('form', { name: 'Add a domain' });
    // A domain added by mistake, deleted after the confirmation (Cancel first keeps it).
    await add.getByLabel('Domain name').fill('old.northwind.test');
    await add.getByRole('button', { name: 'Add domain' }).click();
    const old = t.page.getByRole('article', { name: 'old.northwind.test' });
    await old.getByRole('button', { name: 'Delete' }).click();
    const dialog = t.page.getByRole('dialog', { name: 'Delete old.northwind.test?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await old.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await t.page.getByText('Domain deleted').waitFor();
    await t.page.getByRole('heading', { name: 'No domains yet' }).waitFor();

    await add.getByLabel('Domain name').fill('not a domain');
    await add.getByRole('button', { name: 'Add domain' }).click();
    await add.getByText('Must be a valid domain name').waitFor();
    expect(await add.getByLabel('Domain name').getAttribute('aria-invalid')).toBe('true');

    await add.getByLabel('Domain name').fill('Go.Northwind.test');
    await add.getByRole('button', { name: 'Add domain' }).click();
    const card = t.page.getByRole('article', { name: 'go.northwind.test' });
    await card.waitFor();
    expect(await card.getByTestId('domain-status').textContent()).toBe('Waiting for DNS');
    const name = (await card.getByTestId('txt-name').textContent()) as string;
    const value = (await card.getByTestId('txt-value').textContent()) as string;
    expect(name).toBe('_dl-verify.go.northwind.test');
    expect(value).toMatch(/^dl-verify=[0-9a-f]{32}$/);

    // Verify before the record exists: still pending, the reason in words.
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByText('No TXT record found at _dl-verify.go.northwind.test').waitFor();
    expect(await card.getByTestId('domain-status').textContent()).toBe('Waiting for DNS');

    t.dns.setTxt(name, [value]);
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.getByTestId('domain-status').filter({ hasText: 'Verified' }).waitFor();
    await expect(card.getByTestId('txt-name').count()).resolves.toBe(0); // the record is no longer asked for

    await card.getByRole('button', { name: 'Make default' }).click();
    await t.page.getByText('go.northwind.test is now the default domain').waitFor();
    await card.getByText('Default', { exact: true }).waitFor();

    // Redirects: an error next to its field, then saved.
    await card.getByLabel('Home page redirect').fill('ftp://example.com');
    await card.getByRole('button', { name: 'Save redirects' }).click();
    await card.getByText('Must be a valid URL').waitFor();
    await card.getByLabel('Home page redirect').fill(`${t.w.site.url}/home`);
    await card.getByLabel('Unknown link redirect').fill(`${t.w.site.url}/missing`);
    await card.getByRole('button', { name: 'Save redirects' }).click();
    await t.page.getByText('Redirects saved').waitFor();
    const stored = await t.w.env.prisma.domain.findFirstOrThrow({ where: { organizationId: t.organizationId, domain: 'go.northwind.test' } });
    expect(stored).toMatchObject({ status: 'verified', isDefault: true, rootRedirectUrl: `${t.w.site.url}/home`, notFoundUrl: `${t.w.site.url}/missing` });

    // The free plan has one domain: a second is refused in words.
    await add.getByLabel('Domain name').fill('more.northwind.test');
    await add.getByRole('button', { name: 'Add domain' }).click();
    await add.getByText('Domain limit reached for your plan').waitFor();
    expect(await t.w.env.prisma.domain.count({ where: { organizationId: t.organizationId } })).toBe(1);
  }, 90_000);

  it('creates a link with every control (domain, A/B variants, a redirect rule, password, click limit, expiry, cloak) and edits it', async () => {
    await t.page.getByRole('link', { name: 'Links' }).first().click();
    await t.page.getByRole('link', { name: 'New link' }).click();
    await t.page.getByRole('heading', { name: 'New link' }).waitFor();
    await t.page.getByLabel('Destination URL').fill(`${t.w.site.url}/landing`);
    await t.page.getByLabel('Title', { exact: true }).fill('Tents sale');
    await t.page.getByLabel('Custom short code').fill('tents26');
    await expect(t.page.getByLabel('Domain').locator('option:checked').textContent()).resolves.toBe('go.northwind.test (default)');
    await t.page.getByTestId('short-preview').filter({ hasText: 'go.northwind.test/tents26' }).waitFor();

    // A/B test: the running total warns, the API's refusal is shown next to the variants.
    await openSection(t.page, 'A/B test and redirect rules');
    await t.page.getByRole('button', { name: 'Add an A/B test' }).click();
    await t.page.getByLabel('Variant 1 URL').fill(`${t.w.site.url}/a`);
    await t.page.getByLabel('Variant 2 URL').fill(`${t.w.site.url}/b`);
    expect(await t.page.getByLabel('Variant 1 weight').inputValue()).toBe('50');
    await t.page.getByLabel('Variant 1 weight').fill('30');
    await t.page.getByTestId('variants-total').filter({ hasText: 'Total 80 of 100' }).waitFor();

    // A redirect rule: French iPhones coming from the newsletter.
    await t.page.getByRole('button', { name: 'Add a rule' }).click();
    const rule = t.page.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Rule 1 URL').fill(`${t.w.site.url}/fr`);
    await rule.getByLabel('Countries').fill('fr');
    await rule.getByRole('group', { name: 'Devices' }).getByLabel('iOS').check();
    await rule.getByLabel('Query parameters').fill('ref=newsletter');

    await openSection(t.page, 'Access and lifetime');
    await t.page.getByLabel('Password').fill('open-sesame');
    await t.page.getByLabel('Click limit').fill('500');
    await t.page.getByLabel('Expires at').fill('2031-01-01T10:00');
    await t.page.getByLabel('After expiry, send visitors to').fill(`${t.w.site.url}/over`);
    await t.page.getByRole('checkbox', { name: /Cloak/ }).check();

    await t.page.getByRole('button', { name: 'Create link' }).click();
    await t.page.getByText('Weights must sum to 100').waitFor();
    await t.page.getByLabel('Variant 2 weight').fill('70');
    await t.page.getByTestId('variants-total').filter({ hasText: 'Total 100 of 100' }).waitFor();
    await t.page.getByRole('button', { name: 'Create link' }).click();
    await t.page.waitForURL(/\/app\/links\/[0-9a-f-]{36}$/);
    expect(await t.page.getByTestId('short-url').textContent()).toBe('https://go.northwind.test/tents26');

    const domain = await t.w.env.prisma.domain.findFirstOrThrow({ where: { organizationId: t.organizationId, domain: 'go.northwind.test' } });
    const link = await t.w.env.prisma.link.findFirstOrThrow({ where: { organizationId: t.organizationId, shortCode: 'tents26' } });
    expect(link).toMatchObject({
      domainId: domain.id,
      variants: [
        { url: `${t.w.site.url}/a`, weight: 30 },
        { url: `${t.w.site.url}/b`, weight: 70 },
      ],
      redirectRules: [{ conditions: { countries: ['FR'], devices: ['ios'], query: { ref: 'newsletter' } }, url: `${t.w.site.url}/fr` }],
      maxClicks: 500,
      expiredUrl: `${t.w.site.url}/over`,
      cloak: true,
    });
    expect(link.passwordHash).toEqual(expect.any(String));
    expect(link.expiresAt?.getTime()).toBe(new Date('2031-01-01T10:00').getTime());

    // The edit form shows what was saved; removing the password and the limit clears them.
    await t.page.getByRole('link', { name: 'Edit' }).click();
    await t.page.getByRole('heading', { name: 'Edit link' }).waitFor();
    expect(await t.page.getByLabel('Variant 1 weight').inputValue()).toBe('30');
    expect(await t.page.getByLabel('Variant 2 URL').inputValue()).toBe(`${t.w.site.url}/b`);
    expect(await rule.getByLabel('Countries').inputValue()).toBe('FR');
    expect(await rule.getByRole('group', { name: 'Devices' }).getByLabel('iOS').isChecked()).toBe(true);
    expect(await rule.getByLabel('Query parameters').inputValue()).toBe('ref=newsletter');
    expect(await t.page.getByLabel('Click limit').inputValue()).toBe('500');
    expect(await t.page.getByRole('checkbox', { name: /Cloak/ }).isChecked()).toBe(true);
    await t.page.getByText('This link has a password').waitFor();
    await t.page.getByLabel('Remove the password').check();
    await t.page.getByLabel('Click limit').fill('');
    await t.page.getByRole('button', { name: 'Remove variant 2' }).click();
    await t.page.getByRole('button', { name: 'Save link' }).click();
    await t.page.getByText('Must be an array of 2-10 variants').waitFor(); // one variant is not an A/B test
    await t.page.getByRole('button', { name: 'Remove variant 1' }).click();
    await t.page.getByRole('button', { name: 'Save link' }).click();
    await t.page.getByText('Link saved').waitFor();
    const edited = await t.w.env.prisma.link.findUniqueOrThrow({ where: { id: link.id } });
    expect(edited).toMatchObject({ passwordHash: null, maxClicks: null, variants: null, cloak: true });
  }, 90_000);

  it('imports a CSV: upload, progress, the report with the rows that failed', async () => {
    await t.page.getByRole('link', { name: 'Links' }).first().click();
    await t.page.getByRole('link', { name: 'Import CSV' }).click();
    await t.page.getByRole('heading', { name: 'Import links' }).waitFor();
    await t.page.getByRole('button', { name: 'Import' }).click();
    await t.page.getByText('Choose a CSV file').first().waitFor();

    const csv = ['url,shortCode,title', 'https://example.com/a,imp0001,First', 'not-a-url,imp0002,Broken', 'https://example.com/c,imp0003,Third'].join('\n');
    await t.page.getByLabel('CSV file').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await t.page.getByRole('button', { name: 'Import' }).click();
    const report = t.page.getByTestId('import-report');
    await report.waitFor();
    await t.page.getByText('Imported 2 links').waitFor();
    const stat = (label: string) => report.locator('.stat', { hasText: label }).locator('.value').textContent();
    await expect(stat('Imported')).resolves.toBe('2');
    await expect(stat('Failed')).resolves.toBe('1');
    const failed = report.getByRole('table', { name: 'Rows that failed' }).getByRole('row');
    expect(await failed.count()).toBe(2); // header + one row
    expect(await failed.nth(1).getByRole('cell').first().textContent()).toBe('2'); // the second data row
    expect(await t.w.env.prisma.link.count({ where: { organizationId: t.organizationId, shortCode: { in: ['imp0001', 'imp0003'] } } })).toBe(2);

    await report.getByRole('link', { name: 'See the links' }).click();
    await t.page.getByRole('link', { name: 'First' }).waitFor();
  }, 60_000);

  it('filters the links list on the server: search, tag, project, domain and status, each a query of GET /api/links', async () => {
    const owner = await t.w.env.prisma.link.findFirstOrThrow({ where: { organizationId: t.organizationId, shortCode: 'tents26' } });
    const project = await t.w.env.prisma.project.create({ data: { organizationId: t.organizationId, userId: owner.userId, name: 'Winter catalogue' } });
    // Three links on the service's own host: tagged, inactive, in a project.
    await t.w.env.prisma.$executeRawUnsafe(
      `INSERT INTO links (organization_id, user_id, template_id, short_code, original_url, title, tags, is_active, project_id)
       VALUES ($1::uuid, $2::uuid, $3::uuid, 'fltsummer', 'https://example.com/s', 'Summer boots', ARRAY['summer'], true, NULL),
              ($1::uuid, $2::uuid, $3::uuid, 'fltwinter', 'https://example.com/w', 'Winter coats', ARRAY['winter'], false, NULL),
              ($1::uuid, $2::uuid, $3::uuid, 'fltproject', 'https://example.com/p', 'Project gloves', ARRAY[]::text[], true, $4::uuid)`,
      t.organizationId,
      owner.userId,
      owner.templateId,
      project.id,
    );
    await t.page.goto('/app/links');
    const titles = async () => (await t.page.locator('.table-row .row-title').allTextContents()).sort();
    const foot = t.page.locator('.table-foot');
    const waitFor = async (expected: string[]) => {
      const want = `${expected.length} of ${expected.length} links`;
      // The list's own count, then its rows (a failure names what the list showed instead).
      await foot.filter({ hasText: new RegExp(`^${want}$`) }).waitFor({ timeout: 20_000 }).catch(async () => {
        throw new Error(`expected "${want}", the list shows "${await foot.textContent().catch(() => 'no list')}": ${(await titles()).join(', ')}`);
      });
      expect(await titles()).toEqual([...expected].sort());
    };
    await waitFor(['Summer boots', 'Winter coats', 'Project gloves', 'First', 'Third', 'Tents sale']);

    const asked = (param: RegExp) => t.page.waitForRequest((r) => r.url().includes('/api/links?') && param.test(r.url()));
    const [search] = await Promise.all([asked(/search=boots/), t.page.getByRole('searchbox', { name: 'Search links' }).fill('boots')]);
    expect(new URL(search.url()).searchParams.get('limit')).toBe('1000');
    await waitFor(['Summer boots']);
    await t.page.getByRole('searchbox', { name: 'Search links' }).fill('');

    await Promise.all([asked(/tag=summer/i), t.page.getByLabel('Tag', { exact: true }).selectOption({ label: 'summer (1)' })]);
    await waitFor(['Summer boots']);
    await t.page.getByLabel('Tag', { exact: true }).selectOption('');

    await Promise.all([asked(/isActive=false/), t.page.getByLabel('Status', { exact: true }).selectOption({ label: 'Inactive only' })]);
    await waitFor(['Winter coats']);
    await t.page.getByLabel('Status', { exact: true }).selectOption('');

    await Promise.all([asked(/projectId=/), t.page.getByLabel('Project', { exact: true }).selectOption({ label: 'Winter catalogue' })]);
    await waitFor(['Project gloves']);
    await t.page.getByLabel('Project', { exact: true }).selectOption('');

    await Promise.all([asked(/domain=go\.northwind\.test/), t.page.getByLabel('Domain', { exact: true }).selectOption('go.northwind.test')]);
    await waitFor(['Tents sale']); // imports and the inserted links are on the service's host
    expect(t.page.url()).toContain('domain=go.northwind.test'); // a filtered view is a URL to share or reload
    await t.page.reload();
    await waitFor(['Tents sale']);

    await t.page.getByRole('searchbox', { name: 'Search links' }).fill('nothing-like-this');
    await t.page.getByRole('heading', { name: 'No links match' }).waitFor();
  }, 60_000);

  it('registers an app (token once) and a pixel site (snippet), revokes and deletes them after a confirmation', async () => {
    await t.page.getByRole('link', { name: 'Apps & pixels' }).click();
    await t.page.getByRole('heading', { name: 'No apps' }).waitFor();
    const app = t.page.getByRole('form', { name: 'Register an app' });
    await app.getByRole('button', { name: 'Register app' }).click();
    await app.getByText(/Must be/).first().waitFor(); // the API's validation next to the fields
    await app.getByLabel('App name').fill('Northwind iOS');
    await app.getByLabel('Bundle id').fill('com.northwind.shop');
    await app.getByRole('button', { name: 'Register app' }).click();
    await expect(app.getByRole('region', { name: 'SDK token' }).getByTestId('secret').textContent()).resolves.toMatch(/\S{20,}/);
    await t.page.getByRole('cell', { name: 'com.northwind.shop' }).waitFor();

    const site = t.page.getByRole('form', { name: 'Add a pixel site' });
    await site.getByLabel('Site name').fill('Northwind store');
    await site.getByLabel('Domain').fill('shop.northwind.test');
    await site.getByRole('button', { name: 'Add site' }).click();
    await expect(site.locator('pre.snippet').textContent()).resolves.toContain('data-site-key=');

    await t.page.getByRole('row', { name: /Northwind iOS/ }).getByRole('button', { name: 'Revoke' }).click();
    await t.page.getByRole('dialog', { name: 'Revoke the token of “Northwind iOS”?' }).getByRole('button', { name: 'Revoke' }).click();
    await t.page.getByText('App token revoked').waitFor();
    await t.page.getByRole('row', { name: /Northwind store/ }).getByRole('button', { name: 'Delete' }).click();
    await t.page.getByRole('dialog', { name: 'Delete “Northwind store”?' }).getByRole('button', { name: 'Delete' }).click();
    await t.page.getByText('Pixel site deleted').waitFor();
    await t.page.getByRole('heading', { name: 'No pixel sites' }).waitFor();
  }, 60_000);
});
