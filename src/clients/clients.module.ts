import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ClientsController } from './clients.controller.js';
import { ClientsAdminService } from './clients.service.js';

/** Client management over HTTP (`/api/admin/clients`); the clients themselves are the auth module's. */
@Module({
  imports: [AuthModule],
  controllers: [ClientsController],
  providers: [ClientsAdminService],
})
export class ClientsModule {}
