import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { FdlShortLinksController } from './fdl-short-links.controller';
import { MigrationsController } from './migrations.controller';

@Module({ imports: [LinksModule], controllers: [MigrationsController, FdlShortLinksController] })
export class MigrationsApiModule {}
