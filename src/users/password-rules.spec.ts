import { loadConfig } from '../config/app-config.js';
import { passwordProblem, personalWords } from './password-rules.js';

const BIA = { email: 'bia.lima@example.com', name: 'Bia Lima' };

describe('passwordProblem', () => {
  it('refuses fewer than 12 characters, counted as characters rather than bytes', () => {
    expect(passwordProblem('elevenchars', BIA)).toBe('TOO_SHORT');
    // 11 characters, 22 bytes in UTF-8.
    expect(passwordProblem('ççççççççççç', BIA)).toBe('TOO_SHORT');
  });

  it('refuses a password of the common list whatever its case', () => {
    expect(passwordProblem('qwerty123456', BIA)).toBe('COMMON');
    expect(passwordProblem('QWERTY123456', BIA)).toBe('COMMON');
    expect(passwordProblem('1qaz2wsx3edc', BIA)).toBe('COMMON');
  });

  it('refuses 12 characters or more that are still easy to guess: one repeated character, spaces, sequences, keyboard rows, common phrases', () => {
    for (const guessable of [
      ' '.repeat(12),
      'aaaaaaaaaaaa',
      'çççççççççççç',
      'abcdefghijklmnop',
      '123456789012345',
      'qwertyuiopasdf',
      'iloveyouiloveyou',
      'passwordpassword1',
      'Password12345!',
    ]) {
      expect({ guessable, problem: passwordProblem(guessable, BIA) }).toEqual({ guessable, problem: 'GUESSABLE' });
    }
  });

  it("refuses the person's own email or name, whole or in pieces", () => {
    for (const personal of ['bia.lima@example.com', 'bia.lima2024!', 'BiaLima12345', 'lima.bia.lima']) {
      expect({ personal, problem: passwordProblem(personal, BIA) }).toEqual({ personal, problem: 'PERSONAL' });
    }
    // Not someone else's: the same text is fine for another person.
    expect(passwordProblem('bia.lima@example.com', { email: 'carlos@example.org', name: 'Carlos Souza' })).toBeUndefined();
  });

  it('accepts a long uncommon password', () => {
    expect(passwordProblem('plum-kettle-orbit-42', BIA)).toBeUndefined();
    expect(passwordProblem('violet-harbor-lantern-93', BIA)).toBeUndefined();
  });

  it('accepts the documented development admin password, so that the bootstrap admin follows the same rules', () => {
    const config = loadConfig({});
    expect(
      passwordProblem(config.bootstrapAdminPassword, { email: config.bootstrapAdminEmail, name: 'Development admin' }),
    ).toBeUndefined();
  });
});

describe('personalWords', () => {
  it('gives the email, its local part and pieces, and the name, its words and the name without spaces, in lower case', () => {
    expect(personalWords({ email: ' Bia.Lima@Example.com ', name: "Bia O'Neil Lima" }).sort()).toEqual(
      ['bia.lima@example.com', 'bia.lima', 'bia', 'lima', 'example', 'com', "bia o'neil lima", 'neil', 'biaoneillima'].sort(),
    );
  });
});
