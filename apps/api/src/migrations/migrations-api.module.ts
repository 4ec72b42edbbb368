import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { MigrationsController } from './migrations.controller';

@Module({ imports: [LinksModule], controllers: [MigrationsController] })
export class MigrationsApiModule {}
