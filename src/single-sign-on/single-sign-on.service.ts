import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import type { Logger } from '../common/logging/logger.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import { FLOW_COOKIE_SECONDS, OidcFlowCookie } from './oidc-flow-cookie.js';
import { OidcRelyingParty } from './oidc-relying-party.js';
import { SingleSignOnPeople } from './single-sign-on-people.js';

export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';
/** Where a signed-in person lands. */
export const SIGNED_IN_TARGET = '/console/';
/** Where every refused single sign-on lands; the page says only that it did not work. */
export const SSO_FAILED_TARGET = '/console/sign-in?error=sso';

/** Why a callback was refused: logged, never shown (the page says the same for all). */
type Refusal = 'no-flow' | 'provider-error' | 'exchange-failed' | 'email-not-verified' | 'no-active-person';

/**
 * Sign-in through an OpenID Connect provider: the authorization code flow with PKCE, state and
 * nonce, which signs in an existing active person by verified email. See "Single sign-on" in
 * docs/access.md and docs/api-decisions.md.
 */
@Injectable()
export class SingleSignOnService {
  private readonly relyingParty: OidcRelyingParty | undefined;
  private readonly flowCookie: OidcFlowCookie;
  private readonly logger: Logger;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    private readonly people: SingleSignOnPeople,
  ) {
    this.logger = logger.child({ component: 'single-sign-on' });
    this.flowCookie = new OidcFlowCookie(config.jwtSecret, config.isProduction);
    const { oidcIssuer, oidcClientId, oidcClientSecret } = config;
    if (oidcIssuer && oidcClientId && oidcClientSecret) {
      this.relyingParty = new OidcRelyingParty({
        issuer: oidcIssuer,
        clientId: oidcClientId,
        clientSecret: oidcClientSecret,
        redirectUri: `${publicBaseUrlOf(config)}${OIDC_CALLBACK_PATH}`,
      });
    }
  }

  /** The provider's authorization URL; the flow's values go into the reply's cookie. */
  async start(reply: FastifyReply): Promise<string> {
    const relyingParty = this.configured();
    try {
      const { flow, url } = await relyingParty.begin(Date.now(), FLOW_COOKIE_SECONDS * 1000);
      this.flowCookie.set(reply, this.flowCookie.serialize(flow));
      return url.href;
    } catch (error) {
      this.logger.warn({ err: error }, 'Single sign-on could not start: the provider did not answer its discovery as expected');
      return SSO_FAILED_TARGET;
    }
  }

  /** Where the browser goes after the provider's answer: the console, signed in, or the sign-in page's error. */
  async callback(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const relyingParty = this.configured();
    const flow = this.flowCookie.read(request);
    // Used once: a replayed answer finds no flow in this browser.
    this.flowCookie.set(reply, this.flowCookie.cleared());
    // No sign-in under way in this browser: nothing was attempted, nothing to record.
    if (!flow) return this.refuse(request, 'no-flow');
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    if (new URLSearchParams(query).has('error')) return this.refuse(request, 'provider-error');

    let identity;
    try {
      identity = await relyingParty.finish(query, flow);
    } catch (error) {
      return this.refuse(request, 'exchange-failed', undefined, error);
    }
    if (!identity.email || !identity.emailVerified) return this.refuse(request, 'email-not-verified', identity.email);
    const person = await this.people.findActivePersonByEmail(identity.email);
    if (!person) return this.refuse(request, 'no-active-person', identity.email);
    await this.people.startSession(person.id, request, reply);
    return SIGNED_IN_TARGET;
  }

  private configured(): OidcRelyingParty {
    if (!this.relyingParty) throw ApiError.notFound('Single sign-on is not configured');
    return this.relyingParty;
  }

  private async refuse(request: FastifyRequest, reason: Refusal, email?: string, error?: unknown): Promise<string> {
    this.logger.info({ reason, ...(error instanceof Error ? { problem: error.message } : {}) }, 'Single sign-on refused');
    if (reason !== 'no-flow') await this.people.recordRefusal(request, { reason, email });
    return SSO_FAILED_TARGET;
  }
}

/** The address people open the service at, without a trailing slash. */
export function publicBaseUrlOf(config: AppConfig): string {
  return config.publicBaseUrl ?? `http://${config.host}:${config.port}`;
}
