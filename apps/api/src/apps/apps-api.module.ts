import { Module } from '@nestjs/common';
import { SdkManagementModule } from '@dl/sdk';
import { AppsController } from './apps.controller';

@Module({ imports: [SdkManagementModule], controllers: [AppsController] })
export class AppsApiModule {}
