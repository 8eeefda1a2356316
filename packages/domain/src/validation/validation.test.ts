import { describe, expect, it } from 'vitest';
import {
  RESTRICTED_CHARACTERS,
  checkNewPassword,
  checkText,
  isValidEmail,
  isValidPhone,
  similarity,
  validatePasswordChange,
  validateProfile,
  validateRegistration,
  validationMessages as m,
} from './index.js';

describe('restricted characters', () => {
  it.each(RESTRICTED_CHARACTERS.map((ch) => [ch]))('refuses %s in a name', (ch) => {
    expect(checkText(`Ada${ch}`, { max: 30, restricted: true })).toEqual([m.restricted]);
  });
  it.each([["O'Brien"], ['Jean-Luc'], ['Zoë'], ['van der Berg'], ['a.b_c']])(
    'accepts %s',
    (name) => {
      expect(checkText(name, { max: 30, restricted: true })).toEqual([]);
    },
  );
  it('names the characters in the message', () => {
    expect(m.restricted).toContain('restricted characters for this field');
    for (const ch of RESTRICTED_CHARACTERS) expect(m.restricted).toContain(ch);
  });
});

describe('email', () => {
  it.each([
    ['ada@example.org', true],
    ['first.last+tag@sub.example.co.uk', true],
    ['ada@example', false],
    ['ada.example.org', false],
    ['ada@@example.org', false],
    ['ada @example.org', false],
    ['@example.org', false],
    ['ada@.org', false],
  ])('%s -> %s', (email, ok) => {
    expect(isValidEmail(email)).toBe(ok);
  });
});

describe('phone', () => {
  it.each([
    ['+61 2 9999 0000', true],
    ['02-9999-0000', true],
    ['0299990000', true],
    ['+61', true],
    ['61+2', false],
    ['02  9999', false],
    ['02 -9999', false],
    ['phone', false],
    ['-0299', false],
    ['0299-', false],
  ])('%s -> %s', (phone, ok) => {
    expect(isValidPhone(phone)).toBe(ok);
  });
});

describe('checkText', () => {
  it.each([
    ['required and empty', '', { required: true, max: 5 }, [m.required]],
    ['required and blank', '   ', { required: true, max: 5 }, [m.required]],
    ['optional and empty', '', { max: 5 }, []],
    ['at the limit', 'abcde', { max: 5 }, []],
    ['over the limit', 'abcdef', { max: 5 }, [m.maxLength(5)]],
    ['bad email', 'nope', { max: 254, email: true }, [m.email]],
    ['bad phone', 'call me', { max: 30, phone: true }, [m.phone]],
  ] as const)('%s', (_name, value, rule, expected) => {
    expect(checkText(value, rule)).toEqual(expected);
  });
});

describe('new passwords', () => {
  const isCommon = (p: string) => ['password1234', 'qwertyuiop'].includes(p);
  it.each([
    ['empty', '', [m.required]],
    ['too short', 'Xy7#q', [m.passwordTooShort]],
    ['11 characters, one short', 'Xy7#qLmz9!R', [m.passwordTooShort]],
    ['exactly 12', 'Xy7#qLmz9!Rt', []],
    ['common', 'password1234', [m.passwordCommon]],
    ['entirely numeric', '830294857112', [m.passwordNumeric]],
    ['contains the username', 'xxadalovelacexx', [m.passwordSimilar]],
    ['close to the username', 'adalovelace1', [m.passwordSimilar]],
    ['over 1000 characters', 'a'.repeat(1001), [m.maxLength(1000)]],
    ['a good passphrase', 'correct horse battery staple', []],
  ])('%s', (_name, password, expected) => {
    expect(checkNewPassword(password, { username: 'adalovelace', isCommon })).toEqual(expected);
  });

  it('asks for 12 characters in the message', () => {
    expect(m.passwordTooShort).toBe(
      'This password is too short. It must contain at least 12 characters.',
    );
  });

  it('measures similarity like SequenceMatcher', () => {
    expect(similarity('abcd', 'abcd')).toBe(1);
    expect(similarity('abcd', 'wxyz')).toBe(0);
    expect(similarity('abcd', 'bcde')).toBeCloseTo(0.75);
  });
});

const goodRegistration = {
  username: 'ada',
  email: 'ada@example.org',
  first_name: 'Ada',
  last_name: 'Lovelace',
  institution: 'Analytical Society',
  gender: 'FEMALE',
  phone_number: '+44 20 7946 0000',
  password1: 'correct horse battery staple',
  password2: 'correct horse battery staple',
  is_student: false,
  captcha: 'payload',
};

describe('validateRegistration', () => {
  it('accepts a complete form', () => {
    expect(validateRegistration(goodRegistration)).toEqual({});
  });
  it('requires every field but the student flag', () => {
    const errors = validateRegistration({});
    expect(Object.keys(errors).sort()).toEqual(
      [
        'captcha',
        'email',
        'first_name',
        'gender',
        'institution',
        'last_name',
        'password1',
        'password2',
        'phone_number',
        'username',
      ].sort(),
    );
    for (const list of Object.values(errors)) expect(list).toEqual([m.required]);
  });
  it.each([
    [
      'mismatched passwords',
      { password2: 'something else entirely' },
      'password2',
      m.passwordMismatch,
    ],
    ['an unknown gender', { gender: 'ROBOT' }, 'gender', m.gender],
    ['a bad email', { email: 'ada' }, 'email', m.email],
    ['a restricted character in the username', { username: 'ada;drop' }, 'username', m.restricted],
    ['a long first name', { first_name: 'A'.repeat(31) }, 'first_name', m.maxLength(30)],
    ['a long institution', { institution: 'I'.repeat(101) }, 'institution', m.maxLength(100)],
  ])('reports %s on its field', (_name, change, field, message) => {
    expect(validateRegistration({ ...goodRegistration, ...change })).toEqual({
      [field]: [message],
    });
  });
});

describe('validateProfile and validatePasswordChange', () => {
  it('reports gender under the field name the form uses', () => {
    expect(validateProfile({ ...goodRegistration, gender: '' }, {}, 'gender_choice')).toEqual({
      gender_choice: [m.required],
    });
  });
  it('requires all three password fields', () => {
    expect(validatePasswordChange({})).toEqual({
      oldPassword: [m.required],
      newPassword1: [m.required],
      newPassword2: [m.required],
    });
  });
});
