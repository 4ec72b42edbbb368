import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';

/**
 * Sends mail through SMTP_URL; with none set, writes each message as an .eml file
 * into MAIL_OUTBOX_DIR (open it with any mail client).
 */
@Injectable()
export class MailerService implements OnModuleDestroy {
  private readonly logger = new Logger(MailerService.name);
  private transport?: Transporter;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async send(message: SendMailOptions): Promise<{ messageId: string; outboxFile?: string }> {
    // Required on the first mail, not at the top: a worker that sends no report never loads it.
    const { createTransport } = require('nodemailer') as typeof import('nodemailer');
    const mail = { from: this.config.MAIL_FROM, ...message };
    if (this.config.SMTP_URL) {
      this.transport ??= createTransport(this.config.SMTP_URL);
      const info = await this.transport.sendMail(mail);
      return { messageId: info.messageId };
    }
    const stream = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    const info = await stream.sendMail(mail);
    const dir = resolve(this.config.MAIL_OUTBOX_DIR);
    await mkdir(dir, { recursive: true });
    const to = typeof mail.to === 'object' && mail.to && 'address' in mail.to ? String(mail.to.address) : String(mail.to ?? 'unknown');
    const safe = to.replace(/[^A-Za-z0-9@._-]+/g, '_').slice(0, 80);
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safe}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.eml`);
    await writeFile(file, info.message as Buffer);
    this.logger.log({ file }, 'mail written to outbox (SMTP_URL not set)');
    return { messageId: info.messageId, outboxFile: file };
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
