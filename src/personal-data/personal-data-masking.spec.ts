import { maskedDocument, maskedEmail, maskedPhone } from './personal-data-masking.js';

describe('masked contact values', () => {
  it('keeps a CPF’s middle six digits, a CNPJ’s branch digits, a phone’s last four and an e-mail’s first letter and domain', () => {
    expect(maskedDocument('123.456.789-09')).toBe('***.456.789-**');
    expect(maskedDocument(12345678909)).toBe('***.456.789-**');
    expect(maskedDocument('11.222.333/0001-81')).toBe('**.***.333/0001-**');
    expect(maskedPhone('+55 11 98765-4321')).toBe('(**) *****-4321');
    expect(maskedPhone(11987654321)).toBe('(**) *****-4321');
    expect(maskedPhone('123')).toBe('****');
    expect(maskedEmail('ana.souza@example.com')).toBe('a***@example.com');
    expect(maskedEmail('not-an-email')).toBe('***');
  });
});
