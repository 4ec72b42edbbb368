import { Module } from '@nestjs/common';
import { TemplatesModule } from '@dl/templates';
import { TemplatesController } from './templates.controller';

@Module({ imports: [TemplatesModule], controllers: [TemplatesController] })
export class TemplatesApiModule {}
