import { describe, expect, it } from 'vitest';
import { validationMessages as m } from './fields.js';
import { PASSWORD_SCORE_LABELS, passwordStrength, strengthHints } from './password-strength.js';

const ada = {
  username: 'adalovelace',
  email: 'countess@example.org',
  firstName: 'Augusta',
  lastName: 'Byron',
};

describe('passwordStrength: what the server would refuse scores 0 with its message', () => {
  it.each([
    ['11 characters', 'Xy7#qLmz9!R', m.passwordTooShort],
    ['all digits', '830294857112', m.passwordNumeric],
    ['the username with a digit', 'adalovelace1', m.passwordSimilar],
    ['containing the username', 'my-adalovelace-pw', m.passwordSimilar],
    ['the email address', 'countess@example', strengthHints.similar('email address')],
    ['the first name', 'augusta12345', strengthHints.similar('first name')],
    ['the last name', 'xbyronxbyron', strengthHints.similar('last name')],
    ['over 1000 characters', 'a'.repeat(1001), m.maxLength(1000)],
  ])('%s -> 0', (_name, password, hint) => {
    expect(passwordStrength(password, ada)).toEqual({ score: 0, label: 'Too weak', hint });
  });

  it('says nothing about an empty field', () => {
    expect(passwordStrength('', ada)).toEqual({ score: 0, label: 'Too weak', hint: '' });
  });

  it('compares with the owner only when told who it is', () => {
    expect(passwordStrength('adalovelace!', {}).score).toBeGreaterThan(0);
    expect(passwordStrength('adalovelace!', ada).score).toBe(0);
  });
});

describe('passwordStrength: guessable patterns of 12 characters or more score low', () => {
  it.each([
    ['a common password and a run of digits', 'password1234', 1, strengthHints.commonWord],
    ['a common word with letters swapped for symbols', 'P@ssw0rd2024', 1, strengthHints.commonWord],
    ['a common word, a year and a repeat', 'Summer2024!!', 1, strengthHints.commonWord],
    ['a word twice', 'monkeymonkey', 1, strengthHints.commonWord],
    ['a keyboard row', 'qwertyuiopas', 1, strengthHints.sequence],
    ['the alphabet', 'abcdefghijkl', 1, strengthHints.sequence],
    ['backwards digits and letters', 'zyxwvu987654', 1, strengthHints.sequence],
    ['one character repeated', 'aaaaaaaaaaaa', 1, strengthHints.repeat],
    ['a block repeated', 'k9$k9$k9$k9$', 1, strengthHints.repeat],
    ['a year among random letters', 'mqkv1987wtpb', 3, strengthHints.year],
    ['two common words and a few letters', 'ilovemydog12', 2, strengthHints.commonWord],
    ['a common word and a short one', 'princess-roses', 3, strengthHints.commonWord],
  ])('%s: %s -> %i', (_name, password, score, hint) => {
    expect(passwordStrength(password, ada)).toEqual({
      score,
      label: PASSWORD_SCORE_LABELS[score],
      hint,
    });
  });
});

describe('passwordStrength: unpatterned passwords score high', () => {
  it.each([
    ['12 random characters of every kind', 'Xy7#qLmz9!Rt'],
    ['12 random lower-case letters', 'kdjwuqlzmbxp'],
    ['a passphrase', 'correct horse battery staple'],
    ['words run together', 'horsebatterystaple'],
    ['accents, CJK and emoji', 'Ünïcødé 密码 🔑🐉 ça marche'],
  ])('%s -> Strong, with no hint', (_name, password) => {
    expect(passwordStrength(password, ada)).toEqual({ score: 4, label: 'Strong', hint: '' });
  });

  it('scores a longer password of the same kind at least as high', () => {
    const scores = ['Xy7#qLmz9!Rt', 'Xy7#qLmz9!Rtpw', 'Xy7#qLmz9!RtpwQ2'].map(
      (p) => passwordStrength(p).score,
    );
    expect(scores).toEqual([...scores].sort());
  });

  it('answers within a keystroke for the longest password allowed', () => {
    const started = performance.now();
    expect(passwordStrength('x7'.repeat(500)).score).toBe(1);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
