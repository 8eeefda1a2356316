/**
 * The operator's privacy notice (ASVS V8.3.3): when an installation sets one, nobody gets
 * an account without accepting it, by registering or by completing a federated registration.
 */
export const PRIVACY_CONSENT_LABEL = 'I have read and accept the privacy notice';

export const privacyMessages = {
  consentRequired: 'Please read the privacy notice and accept it to register.',
} as const;

/** The consent field's messages: none when no notice is set, or when it was accepted. */
export function checkPrivacyConsent(noticeSet: boolean, consent: boolean | undefined): string[] {
  return noticeSet && consent !== true ? [privacyMessages.consentRequired] : [];
}
