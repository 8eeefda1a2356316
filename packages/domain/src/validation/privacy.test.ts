import { describe, expect, it } from 'vitest';
import { checkPrivacyConsent, privacyMessages } from './privacy.js';

describe('checkPrivacyConsent', () => {
  it.each([
    ['notice set, accepted -> fine', true, true, []],
    ['notice set, not accepted -> asks for it', true, false, [privacyMessages.consentRequired]],
    ['notice set, not sent -> asks for it', true, undefined, [privacyMessages.consentRequired]],
    ['no notice, not sent -> fine (the spec’s registration)', false, undefined, []],
    ['no notice, accepted anyway -> fine', false, true, []],
  ])('%s', (_name, noticeSet, consent, expected) => {
    expect(checkPrivacyConsent(noticeSet, consent)).toEqual(expected);
  });
});
