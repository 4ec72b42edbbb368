import { Module } from '@nestjs/common';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

@Module({ providers: [TemplatesRepository, TemplatesService], exports: [TemplatesService] })
export class TemplatesModule {}
