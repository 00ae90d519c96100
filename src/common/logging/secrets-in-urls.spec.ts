import { withoutSecretsInUrls } from './secrets-in-urls.js';

describe('withoutSecretsInUrls', () => {
  it('hides a password link token in any case or encoding of the path, and keeps the rest of the URL', () => {
    expect(withoutSecretsInUrls('{"url":"/api/auth/password-links/AbC_12-x"}')).toBe('{"url":"/api/auth/password-links/[redacted]"}');
    expect(withoutSecretsInUrls('Cannot PUT /API/AUTH/PASSWORD-LINKS/AbC?x=1')).toBe('Cannot PUT /API/AUTH/PASSWORD-LINKS/[redacted]?x=1');
    expect(withoutSecretsInUrls('/api/auth/password%2Dlinks/AbC/more')).toBe('/api/auth/password%2Dlinks/[redacted]/more');
  });

  it('hides credentials in query parameters and keeps the others', () => {
    expect(withoutSecretsInUrls('/api/auth/oidc/callback?code=c0de&state=st4te&iss=https%3A%2F%2Fidp')).toBe(
      '/api/auth/oidc/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp',
    );
    expect(withoutSecretsInUrls('/x?page=2&access_token=abc&Client_Secret=s&password=p&token=t#f')).toBe(
      '/x?page=2&access_token=[redacted]&Client_Secret=[redacted]&password=[redacted]&token=[redacted]#f',
    );
    expect(withoutSecretsInUrls('/api/admin/orders?status=NEW&storeId=7&orderId=code-1')).toBe(
      '/api/admin/orders?status=NEW&storeId=7&orderId=code-1',
    );
  });

  it("hides a person's data in the personal-data lookup's query", () => {
    expect(withoutSecretsInUrls('/api/admin/personal-data?email=ana%40example.com&x=1')).toBe(
      '/api/admin/personal-data?email=[redacted]&x=1',
    );
    expect(withoutSecretsInUrls('{"url":"/api/admin/personal-data?phone=%2B55%2011&document=529.982.247-25"}')).toBe(
      '{"url":"/api/admin/personal-data?phone=[redacted]&document=[redacted]"}',
    );
  });
});
