import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  formatRecoveryCode,
  isRecoveryCode,
  isTotpCode,
  otpauthUri,
  totpStep,
} from './two-factor.js';

const ascii = (text: string) => new TextEncoder().encode(text);

describe('base32 (RFC 4648 §10 test vectors, without padding)', () => {
  it.each([
    ['', ''],
    ['f', 'MY'],
    ['fo', 'MZXQ'],
    ['foo', 'MZXW6'],
    ['foob', 'MZXW6YQ'],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI'],
  ])('"%s" is %s and back', (text, encoded) => {
    expect(base32Encode(ascii(text))).toBe(encoded);
    expect(new TextDecoder().decode(base32Decode(encoded)!)).toBe(text);
  });

  it('reads a key typed in lower case, in groups, and refuses other characters', () => {
    expect(base32Decode('mzxw 6ytb oi')).toEqual(ascii('foobar'));
    expect(base32Decode('MZXW0')).toBeNull();
  });
});

describe('codes as typed', () => {
  it.each([
    ['123456', true, false],
    ['123 456', true, false],
    ['12345', false, false],
    ['1234567', false, false],
    ['abcde-fghjk', false, true],
    ['ABCDEFGHJK', false, true],
    // 0, 1, i, l and o are not in recovery codes: people confuse them.
    ['abcde-fghj1', false, false],
    ['abcde-fghjkm', false, false],
  ])('"%s": authenticator code %s, recovery code %s', (input, totp, recovery) => {
    expect(isTotpCode(input)).toBe(totp);
    expect(isRecoveryCode(input)).toBe(recovery);
  });

  it('shows a recovery code in two groups of five', () => {
    expect(formatRecoveryCode('ABCDEFGHJK')).toBe('abcde-fghjk');
  });
});

describe('the key for the app', () => {
  it('is an otpauth URI with the issuer Merit and the username, escaped', () => {
    expect(otpauthUri('ada lovelace', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Merit:ada%20lovelace?secret=JBSWY3DPEHPK3PXP&issuer=Merit&algorithm=SHA1&digits=6&period=30',
    );
  });

  it('counts time in 30-second steps from the Unix epoch', () => {
    expect(totpStep(new Date(59_000))).toBe(1);
    expect(totpStep(new Date(60_000))).toBe(2);
    expect(totpStep(new Date(1111111109_000))).toBe(0x23523ec);
  });
});
