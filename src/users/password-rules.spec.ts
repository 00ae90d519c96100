import { loadConfig } from '../config/app-config.js';
import { passwordProblem } from './password-rules.js';

describe('passwordProblem', () => {
  it('refuses fewer than 12 characters, counted as characters rather than bytes', () => {
    expect(passwordProblem('elevenchars')).toBe('TOO_SHORT');
    // 11 characters, 22 bytes in UTF-8.
    expect(passwordProblem('ççççççççççç')).toBe('TOO_SHORT');
    expect(passwordProblem('çççççççççççç')).toBeUndefined();
  });

  it('refuses a password of the common list whatever its case', () => {
    expect(passwordProblem('qwerty123456')).toBe('COMMON');
    expect(passwordProblem('QWERTY123456')).toBe('COMMON');
    expect(passwordProblem('1qaz2wsx3edc')).toBe('COMMON');
  });

  it('accepts a long uncommon password', () => {
    expect(passwordProblem('plum-kettle-orbit-42')).toBeUndefined();
  });

  it('accepts the documented development admin password, so that the bootstrap admin follows the same rules', () => {
    expect(passwordProblem(loadConfig({}).bootstrapAdminPassword)).toBeUndefined();
  });
});
