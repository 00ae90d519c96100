/** What a secret found in a logged URL is replaced with (the censor of the logger's other redactions). */
export const REDACTED = '[redacted]';

/**
 * The one-time password link's token, a path segment (in any case, `-` possibly percent-encoded: a
 * mistyped or probing request is logged too). Stops where a URL segment or a JSON string ends.
 */
const PASSWORD_LINK_TOKEN = /(\/password(?:-|%2d)links\/)[^/?#\s"\\]+/gi;

/**
 * Query parameters that carry a credential: any `…token` or `…secret` or `…password`, and the
 * authorization code, `state` and `nonce` of an OAuth or OpenID Connect answer (the single sign-on callback).
 */
const SECRET_QUERY_PARAMETER =
  /([?&;](?:[\w.-]*(?:token|secret|password|passwd)|code|state|session_state|nonce|code_verifier|assertion|key|api_key|apikey|signature|sig)=)[^&;#\s"\\]*/gi;

/** Query parameters that carry a person's data (the personal-data lookup's keys): never logged (docs/personal-data.md). */
const PERSONAL_QUERY_PARAMETER = /([?&;](?:email|e-mail|phone|document|cpf|cnpj)=)[^&;#\s"\\]*/gi;

/** `text` with the secrets and personal data URLs carry (path and query) replaced by `[redacted]`, wherever a URL appears in it. */
export function withoutSecretsInUrls(text: string): string {
  return text
    .replace(PASSWORD_LINK_TOKEN, `$1${REDACTED}`)
    .replace(SECRET_QUERY_PARAMETER, `$1${REDACTED}`)
    .replace(PERSONAL_QUERY_PARAMETER, `$1${REDACTED}`);
}
