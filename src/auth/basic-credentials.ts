export interface BasicCredentials {
  clientId: string;
  clientSecret: string;
}

/** Parses `Authorization: Basic base64(id:secret)`; undefined when absent or another scheme. */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | 'malformed' | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return /^Basic\b/i.test(header) ? 'malformed' : undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator < 0) return 'malformed';
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, separator).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(separator + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return 'malformed';
  }
}
