import { Module } from '@nestjs/common';
import { SafetyModule } from '@dl/safety';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

@Module({ imports: [SafetyModule], providers: [TemplatesRepository, TemplatesService], exports: [TemplatesService] })
export class TemplatesModule {}
