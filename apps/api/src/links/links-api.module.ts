import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { LinksController } from './links.controller';

@Module({ imports: [LinksModule], controllers: [LinksController] })
export class LinksApiModule {}
