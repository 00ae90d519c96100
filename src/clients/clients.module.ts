import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ClientsController } from './clients.controller.js';
import { ApiClientsAdminService } from './api-clients-admin.service.js';

/** Client management over HTTP (`/api/admin/clients`); the clients themselves are the auth module's. */
@Module({
  imports: [AuthModule],
  controllers: [ClientsController],
  providers: [ApiClientsAdminService],
})
export class ClientsModule {}
