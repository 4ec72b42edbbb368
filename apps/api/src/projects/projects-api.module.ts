import { Module } from '@nestjs/common';
import { ProjectsModule } from '@dl/projects';
import { ProjectsController } from './projects.controller';

@Module({ imports: [ProjectsModule], controllers: [ProjectsController] })
export class ProjectsApiModule {}
