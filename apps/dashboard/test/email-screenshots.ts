/**
 * `node tools/scripts/run.js apps/dashboard/test/email-screenshots.ts [outDir]`: the account emails
 * of decisions §20 (verification, invitation, password reset, deletion scheduled) as the api sends
 * them: an api with its real mailer writing to an outbox, driven through signup, forgot-password, a
 * member invitation and DELETE /api/organization. Each email's HTML in Chromium, light and dark, at
 * 1280 px and 390 px, written to `outDir` (default docs/screenshots) as email-<kind>-<theme>-<width>.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { authHeader, createTestEnv, ensureTemplateDatabase, nthOutboxMail, startApp } from '@dl/testing';
import { CHROMIUM, CHROMIUM_ARGS } from './world';

const root = join(__dirname, '..', '..', '..');
const out = process.argv[2] ?? join(root, 'docs', 'screenshots');

async function main(): Promise<void> {
  process.env.TEST_DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
  await ensureTemplateDatabase();
  const outbox = mkdtempSync(join(tmpdir(), 'dl-email-shots-'));
  const env = await createTestEnv({ MAIL_OUTBOX_DIR: outbox, DASHBOARD_URL: 'https://app.example.com/app', RATE_LIMIT_ENABLED: 'false' });
  const api = await startApp(createApiApp, env.config);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  try {
    const owner = 'mia@northwind.example';
    const invitee = 'sam@northwind.example';
    const signup = await request(api.url)
      .post('/auth/signup')
      .send({ email: owner, password: 'a-long-password-1', name: 'Mia Marketer', organizationName: 'Northwind Outdoor' })
      .expect(201);
    const jwt = signup.body.accessToken as string;
    await request(api.url).post('/auth/forgot-password').send({ email: owner }).expect(202);
    const reset = await nthOutboxMail(outbox, owner, 2);
    await request(api.url).post('/api/organization/members').set(authHeader(jwt)).send({ email: invitee, role: 'MEMBER' }).expect(201);
    await request(api.url).delete('/api/organization').set(authHeader(jwt)).send({ confirm: signup.body.organization.slug }).expect(202);
    const mails = {
      verification: await nthOutboxMail(outbox, owner, 1),
      reset,
      invitation: await nthOutboxMail(outbox, invitee, 1),
      deletion: await nthOutboxMail(outbox, owner, 3),
    };
    for (const [kind, mail] of Object.entries(mails)) {
      for (const scheme of ['light', 'dark'] as const) {
        for (const width of [1280, 390]) {
          const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: scheme });
          await page.setContent(mail.html);
          const file = join(out, `email-${kind}-${scheme}-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          process.stdout.write(`${file}: ${mail.subject}\n`);
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
    await api.close();
    await env.teardown();
    rmSync(outbox, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
