import { Module } from '@nestjs/common';
import { MailerService } from '@dl/reports';
import { RescreenModule } from '@dl/safety';
import { FlaggedLinksNotifier } from './flagged-links.notifier';
import { RescreenRunner } from './rescreen.runner';

/** Re-screening of every stored link when the threat feeds change (decisions §22). */
@Module({
  imports: [RescreenModule],
  providers: [RescreenRunner, FlaggedLinksNotifier, MailerService],
  exports: [RescreenRunner],
})
export class SafetyWorkerModule {}
