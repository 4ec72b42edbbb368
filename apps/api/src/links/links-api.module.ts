import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { LinksController } from './links.controller';
import { TagsController } from './tags.controller';

@Module({ imports: [LinksModule], controllers: [LinksController, TagsController] })
export class LinksApiModule {}
