import { readFileSync } from 'node:fs';
import { BrowserContext, Page } from 'playwright-core';
import { browserSuite, enableTwoFactor, eventually, screenshotsOf, signIn, signOutAndInWithCode, signUp, World } from './world';


// Decisions §20 in Chromium: two-factor set-up on the Account page (QR code, recovery codes shown
// once), signing in with a code, sessions and change of password, and the Organization settings page.
describe('dashboard: account 2FA and organization settings (Chromium)', () => {
  let w: World, context: BrowserContext, page: Page;
  browserSuite((s) => ({ w, context, page } = s));

  /** The current page in light and dark at 1280 and 390 px, in this browser context's session (its cookie). */
  const shots = (name: string) => screenshotsOf(page, name);

  it('sets up 2FA with the QR code, shows the recovery codes once, then signs in with a code', async () => {
    const account = await signUp(page, 'Secure Co');
    const twoFactor = await enableTwoFactor(page, (what) => shots(`account-${what === 'setup' ? '2fa-setup' : what}`));
    await signOutAndInWithCode(page, account, twoFactor, () => shots('login-code'));
  });

  it('account: renamed; two sign-ins listed, the other one signed out and refused; the password changed and used', async () => {
    const { email, password } = await signUp(page, 'Sessions Co');
    const other = await w.context();
    const otherPage = await other.newPage();
    await signIn(otherPage, email, password);

    await page.goto('/app/account');
    await page.getByLabel('Name', { exact: true }).fill('Mia M. Marketer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Name saved').waitFor();
    const rows = page.getByTestId('sessions').locator('tbody tr');
    await page.getByTestId('sessions').waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.filter({ hasText: 'This session' }).count()).toBe(1);
    await shots('account-sessions');
    await rows.filter({ hasNotText: 'This session' }).getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Session signed out').waitFor();
    await eventually(async () => (await rows.count()) === 1);

    // The signed-out browser's next request is refused, and it cannot refresh its way back.
    const refused = otherPage.waitForResponse((r) => new URL(r.url()).pathname === '/api/keys');
    await otherPage.locator('#nav a[href$="/keys"]').click();
    expect((await refused).status()).toBe(401);
    await otherPage.getByText('Invalid or expired session').waitFor();
    await otherPage.reload();
    await otherPage.waitForURL('**/app/login');
    await other.close();

    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password').fill('a-new-long-password-2');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.locator('.field-error', { hasText: 'Wrong password' }).waitFor();
    await shots('account-password-error');
    await form.getByLabel('Current password').fill(password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Password changed. Your other sessions have been signed out.').waitFor();
    // Signing out the current session from the list signs this browser out.
    await rows.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/app/login');

    const again = await w.context();
    await signIn(await again.newPage(), email, 'a-new-long-password-2');
    await again.close();
  });

  it('organization settings: name and slug, require 2FA refused without it, the export ZIP, schedule deletion and restore', async () => {
    await signUp(page, 'Settings Co');
    await page.goto('/app/organization');
    await page.getByLabel('Name', { exact: true }).fill('Settings Company');
    await page.getByLabel('Slug', { exact: true }).first().fill(`settings-company-${Date.now().toString(36)}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Organization saved').waitFor();
    // Controlled by the answer: the API refuses, so it stays unchecked.
    await page.getByLabel('Require two-factor authentication for every member').click();
    await page.getByText('Turn on two-factor authentication for your own account first').waitFor();
    await shots('organization');

    const slug = await page.getByLabel('Slug', { exact: true }).first().inputValue();
    expect(slug).toMatch(/^settings-company-/);
    // The export is a ZIP saved as <slug>-export.zip.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download export' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(`${slug}-export.zip`);
    expect(readFileSync((await saved.path())!).subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    await page.locator('input[name="deleteConfirm"]').fill(slug);
    await page.getByRole('button', { name: 'Delete organization' }).click();
    await page.getByRole('button', { name: 'Schedule deletion' }).click();
    await page.getByRole('heading', { name: 'Deletion scheduled' }).waitFor();
    await shots('organization-deletion-scheduled');
    await page.getByRole('button', { name: 'Restore Settings Company' }).click();
    await page.getByRole('heading', { name: 'Export' }).waitFor();
  });
});
