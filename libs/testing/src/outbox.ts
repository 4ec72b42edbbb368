import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeHeader, flatten, parseMime } from './mime';

/** An email the mailer wrote to MAIL_OUTBOX_DIR, decoded. */
export interface OutboxMail {
  subject: string;
  html: string;
  text: string;
}

/** The emails to `address` in the outbox (the mailer's .eml files, named after the recipient), oldest first. */
export async function outboxMails(dir: string, address: string): Promise<OutboxMail[]> {
  const safe = address.replace(/[^A-Za-z0-9@._-]+/g, '_').slice(0, 80);
  const files = (await readdir(dir)).filter((f) => f.includes(`-${safe}-`)).sort();
  return Promise.all(
    files.map(async (f) => {
      const mime = parseMime(await readFile(join(dir, f), 'utf8'));
      const part = (type: string) => flatten(mime).find((p) => p.contentType === type)?.body.toString('utf8') ?? '';
      return { subject: decodeHeader(mime.headers.subject ?? ''), html: part('text/html'), text: part('text/plain') };
    }),
  );
}

/** Waits (at most `timeoutMs`) for the nth email to `address`: some are sent after the answer. */
export async function nthOutboxMail(dir: string, address: string, nth: number, timeoutMs = 5000): Promise<OutboxMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = await outboxMails(dir, address);
    if (mails.length >= nth) return mails[nth - 1];
    if (Date.now() > until) throw new Error(`no email #${nth} to ${address} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
