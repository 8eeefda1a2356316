import { describe, expect, it } from 'vitest';
import { errorBody, loginRequest, userDetails } from './index.js';

describe('contract schemas', () => {
  it('word missing and blank login fields for people', () => {
    const result = loginRequest.safeParse({ username: '' });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(
      result.error!.issues.map((i) => [i.path.join('.'), i.message]),
    );
    expect(messages).toEqual({
      username: 'This field may not be blank.',
      password: 'This field is required.',
    });
  });

  it('limit the password to 1000 characters', () => {
    const result = loginRequest.safeParse({ username: 'a', password: 'x'.repeat(1001) });
    expect(result.error?.issues[0]?.message).toBe(
      'Ensure this field has no more than 1000 characters.',
    );
  });

  it('accept the error envelope with and without fields', () => {
    expect(errorBody.safeParse({ detail: 'x', code: 'y' }).success).toBe(true);
    expect(errorBody.safeParse({ detail: 'x', code: 'y', fields: { a: ['b'] } }).success).toBe(
      true,
    );
    expect(errorBody.safeParse({ detail: 'x' }).success).toBe(false);
  });

  it('refuse a user with an unknown gender', () => {
    const user = {
      id: 1,
      username: 'u',
      email: 'u@example.org',
      first_name: '',
      last_name: '',
      institution: '',
      gender: 'UNKNOWN',
      phone_number: '',
      is_student: false,
      is_admin: false,
      registration_complete: true,
      is_aaf: false,
      hash: 'abcdefghjk',
      pending_email: null,
      has_federated_login: false,
      has_two_factor: false,
      roles: [],
      abilities: {
        createCall: false,
        readForms: false,
        lookUpUsers: false,
        review: false,
        administer: false,
      },
    };
    expect(userDetails.safeParse(user).success).toBe(false);
    expect(userDetails.safeParse({ ...user, gender: 'FEMALE' }).success).toBe(true);
  });
});
