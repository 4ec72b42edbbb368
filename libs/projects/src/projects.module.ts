import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({ imports: [LinksModule], providers: [ProjectsRepository, ProjectsService], exports: [ProjectsService] })
export class ProjectsModule {}
