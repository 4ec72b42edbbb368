import { Module } from '@nestjs/common';
import { SdkManagementModule } from '@dl/sdk';
import { PixelsController } from './pixels.controller';

@Module({ imports: [SdkManagementModule], controllers: [PixelsController] })
export class PixelsApiModule {}
