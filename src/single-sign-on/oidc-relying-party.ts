import * as openid from 'openid-client';
import type { OidcFlow } from './oidc-flow-cookie.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `<PUBLIC_BASE_URL>/api/auth/oidc/callback`, registered at the provider. */
  redirectUri: string;
}

/** The email the provider vouches for, from the ID token or, when it has none, from the userinfo endpoint. */
export interface VerifiedIdentity {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
}

/** Seconds one call to the provider may take (discovery, keys, token, userinfo). */
const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * The service as an OpenID Connect relying party, through openid-client (docs/libraries.md):
 * the provider's metadata and keys come from its discovery document, read at the first sign-in
 * and again after a failed read, so a provider down at start delays nothing else.
 */
export class OidcRelyingParty {
  private configuration: Promise<openid.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  /** A new flow and the provider's authorization URL for it: code, PKCE S256, state and nonce. */
  async begin(now = Date.now(), lifetimeMs: number): Promise<{ flow: OidcFlow; url: URL }> {
    const config = await this.discovered();
    const codeVerifier = openid.randomPKCECodeVerifier();
    const flow: OidcFlow = { state: openid.randomState(), nonce: openid.randomNonce(), codeVerifier, expiresAt: now + lifetimeMs };
    const url = openid.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { flow, url };
  }

  /**
   * Checks the provider's answer against the flow (state, and the `iss` parameter when the provider
   * sends one), exchanges the code with the PKCE verifier, and validates the ID token: signature
   * against the provider's published keys, issuer, audience, expiry and nonce. Throws on any failure.
   */
  async finish(query: string, flow: OidcFlow): Promise<VerifiedIdentity> {
    const config = await this.discovered();
    const answered = new URL(this.settings.redirectUri);
    answered.search = query;
    const tokens = await openid.authorizationCodeGrant(config, answered, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the token response has no ID token');
    if (claims.email !== undefined) {
      return { subject: claims.sub, email: textOrUndefined(claims.email), emailVerified: claims.email_verified === true };
    }
    // Providers that follow OpenID Connect Core 5.4 closely put the email in userinfo only.
    const userinfo = await openid.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { subject: claims.sub, email: textOrUndefined(userinfo.email), emailVerified: userinfo.email_verified === true };
  }

  private discovered(): Promise<openid.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw error;
    });
    return this.configuration;
  }

  private async discover(): Promise<openid.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const config = await openid.discovery(issuer, this.settings.clientId, undefined, openid.ClientSecretBasic(this.settings.clientSecret), {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // Plain http only where configuration allows it: outside production (a local test provider).
      execute: issuer.protocol === 'http:' ? [openid.allowInsecureRequests] : [],
    });
    // The token arrives over TLS from the provider itself, but its signature is checked all the same.
    openid.enableNonRepudiationChecks(config);
    return config;
  }
}

function textOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
