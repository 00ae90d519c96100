import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { BASIC_SCOPES } from './auth-metadata.js';
import { AuthService, type GrantedToken } from './auth.service.js';
import type { Scope } from './scopes.js';

/** The guard of `@BasicAuth(...)` routes: the client's id and secret as HTTP Basic, with the route's scopes. */
@Injectable()
export class BasicCredentialsGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scopes = this.reflector.getAllAndOverride<Scope[]>(BASIC_SCOPES, [context.getHandler(), context.getClass()]) ?? [];
    const request = context.switchToHttp().getRequest<FastifyRequest & { basicGrant?: GrantedToken }>();
    request.basicGrant = await this.auth.authenticateBasic(request.headers.authorization, scopes);
    return true;
  }
}
