import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaReadService, PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    PrismaService,
    { provide: PrismaReadService, inject: [APP_CONFIG, PrismaService], useFactory: (config: AppConfig, primary: PrismaService) => PrismaReadService.create(config, primary) },
  ],
  exports: [PrismaService, PrismaReadService],
})
export class DbModule {}
