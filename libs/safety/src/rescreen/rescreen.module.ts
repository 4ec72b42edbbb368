import { Module } from '@nestjs/common';
import { SafetyModule } from '../safety.module';
import { AbuseDeskModule } from '../suspensions.module';
import { AutoSuspension } from './auto-suspension';
import { RescreenPg } from './rescreen.pg';
import { RescreenService } from './rescreen.service';

/** Re-screening of stored links when the feeds change (the worker's; needs the app's Db and Redis modules). */
@Module({
  imports: [SafetyModule, AbuseDeskModule],
  providers: [RescreenPg, RescreenService, AutoSuspension],
  exports: [RescreenService, RescreenPg, SafetyModule],
})
export class RescreenModule {}
