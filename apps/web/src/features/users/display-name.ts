/** "Ada Lovelace", or the username when the user has no name yet. */
export function displayName(user: { first_name: string; last_name: string; username: string }) {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
}
