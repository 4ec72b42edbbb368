export * from './project.dto';
export * from './project-response.dto';
export * from './project.mapper';
export * from './projects.repository';
export * from './projects.service';
export * from './projects.module';
