import type { PasswordChangeRequest, UserDetailsUpdate } from '@merit/contract';
import { apiRequest } from '../../api/client';

export function changePassword(body: PasswordChangeRequest) {
  return apiRequest('/auth/password/change/', {
    method: 'POST',
    body,
    schema: (c) => c.detailResponse,
  });
}

/** PATCH /user_details/ with only the fields that changed; returns the new details. */
export function updateUserDetails(body: UserDetailsUpdate) {
  return apiRequest('/user_details/', { method: 'PATCH', body, schema: (c) => c.userDetails });
}

export interface RegistrationCompletion {
  institution: string;
  gender_choice: string;
  phone_number: string;
  is_student: boolean;
  /** Sent only when the installation sets a privacy notice. */
  privacy_consent?: boolean;
}

/** A federated user's missing details; returns the details with registration_complete set. */
export function completeRegistration(body: RegistrationCompletion) {
  return apiRequest('/auth/complete_registration/', {
    method: 'POST',
    body,
    schema: (c) => c.userDetails,
  });
}

/** Replaces the collaborator hash; whoever had the old one can no longer use it. */
export function renewUserHash() {
  return apiRequest('/user_hash/', { method: 'POST', schema: (c) => c.userHashResponse });
}

/** GET /user_data/: everything Merit holds about the caller (ASVS V8.3.2). */
export function fetchUserData() {
  return apiRequest('/user_data/', { schema: (c) => c.userDataExport });
}
