/** One answer, its redirect not followed. */
export interface BrowserResponse {
  status: number;
  url: string;
  location: string | undefined;
  setCookies: string[];
  text: string;
}

/**
 * A browser reduced to what a redirect-based sign-in needs, over plain HTTP: cookies kept per host and
 * port, redirects followed only when asked, HTML forms submitted by hand. The steps stay visible to the test.
 */
export class ManualBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  async get(url: string): Promise<BrowserResponse> {
    return this.send(url, { method: 'GET' });
  }

  /** Submits the page's first form with its hidden fields plus `fields` (application/x-www-form-urlencoded). */
  async submitForm(page: BrowserResponse, fields: Record<string, string> = {}): Promise<BrowserResponse> {
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(page.text);
    if (!form) throw new Error(`no form on ${page.url}:\n${page.text.slice(0, 500)}`);
    const body = new URLSearchParams();
    for (const hidden of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) body.set(hidden[1]!, hidden[2]!);
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    const action = new URL(unescapeHtml(form[1]!), page.url).href;
    return this.send(action, { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  /** Follows redirects from `response` until `stop` says the next location is the test's to handle, or a page answers. */
  async followUntil(response: BrowserResponse, stop: (location: URL) => boolean): Promise<BrowserResponse | URL> {
    let current = response;
    for (let hops = 0; hops < 20; hops += 1) {
      if (!current.location) return current;
      const next = new URL(current.location, current.url);
      if (stop(next)) return next;
      current = await this.get(next.href);
    }
    throw new Error(`too many redirects from ${response.url}`);
  }

  /** The cookie the browser holds for `url`'s host and port, or undefined. */
  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }

  setCookie(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    this.jar.get(host)!.set(name, value);
  }

  private async send(url: string, init: RequestInit): Promise<BrowserResponse> {
    const host = new URL(url).host;
    const cookies = [...(this.jar.get(host) ?? new Map<string, string>()).entries()].map(([name, value]) => `${name}=${value}`);
    const headers = {
      ...(init.headers as Record<string, string> | undefined),
      ...(cookies.length > 0 ? { cookie: cookies.join('; ') } : {}),
    };
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.keep(host, line);
    return {
      status: response.status,
      url,
      location: response.headers.get('location') ?? undefined,
      setCookies,
      text: await response.text(),
    };
  }

  private keep(host: string, line: string): void {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const separator = pair!.indexOf('=');
    const name = pair!.slice(0, separator);
    const value = pair!.slice(separator + 1);
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || value === '';
    if (expired) this.jar.get(host)!.delete(name);
    else this.jar.get(host)!.set(name, value);
  }
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/g, '/')
    .replace(/&#x3D;/g, '=')
    .replace(/&quot;/g, '"');
}
