import { Module } from '@nestjs/common';
import { ConversionsModule } from '@dl/conversions';
import { TrackController } from './track.controller';

@Module({ imports: [ConversionsModule], controllers: [TrackController] })
export class ConversionsApiModule {}
