import { MAX_LENGTHS, MIN_PASSWORD_LENGTH, validationMessages } from './fields.js';
import { tooSimilar } from './passwords.js';

/**
 * The meter under a new-password field (OWASP ASVS V2.1.8). It advises only: the server's
 * rules (checkNewPassword, with the full common-password list) decide. Score 0 means the
 * server will refuse the password for a rule that can be checked here; 1 to 4 estimate
 * how hard it is to guess, from the patterns people use (common words, sequences,
 * repeats, years) and otherwise the kinds of characters it mixes.
 */
export type PasswordScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordStrength {
  score: PasswordScore;
  /** "Too weak", "Weak", "Fair", "Good" or "Strong". */
  label: string;
  /** What would make it stronger, or the rule it breaks; empty when there is nothing to say. */
  hint: string;
}

/** What the user has told us about themselves; a password like these is easy to guess. */
export interface PasswordOwner {
  username?: string;
  email?: string;
  firstName?: string;
  lastName?: string;
}

export const PASSWORD_SCORE_LABELS = ['Too weak', 'Weak', 'Fair', 'Good', 'Strong'] as const;

export const strengthHints = {
  commonWord: 'Common words and names are easy to guess; add words few people would pick.',
  sequence: 'Runs like abcd, 1234 or qwerty are easy to guess.',
  repeat: 'Repeated characters or words add little.',
  year: 'Years and dates are easy to guess.',
  longer: 'Longer is stronger: add another word or a few more characters.',
  similar: (attribute: string) => `The password is too similar to the ${attribute}.`,
} as const;

// Estimated bits of guesswork at which each score starts (1 is below the first). A
// random 12 characters of lower-case letters reach about 56; "Summer2024!!" about 23.
const SCORE_THRESHOLDS = [28, 40, 52] as const;

// Past this many characters, the estimate stops looking: every score is settled by then,
// and the repeat search grows with the square of the length.
const ANALYSED_LENGTH = 100;

// Some of the most used passwords and the words they are made of (from published
// password leak frequency lists). Deliberately short to keep the web bundle small: the
// server checks the full list of 49,000.
const COMMON_WORDS = (
  'password passwort passw0rd qwerty letmein welcome admin administrator login iloveyou ' +
  'love monkey dragon football baseball soccer hockey sunshine princess master shadow ' +
  'superman batman michael jennifer jordan charlie thomas hunter ranger buster summer ' +
  'winter spring autumn secret freedom whatever trustno1 starwars pokemon computer ' +
  'internet hello cookie cheese flower orange banana chocolate angel baby dog cat ' +
  'merit changeme default guest user test access money blink mustang harley killer'
).split(' ');

// Characters people put for letters: p@ssw0rd.
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '!': 'i',
};

const KEYBOARD_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

type Pattern = 'commonWord' | 'sequence' | 'repeat' | 'year';

interface Match {
  end: number;
  bits: number;
  pattern: Pattern;
}

function characterPool(password: string): number {
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/\d/.test(password)) pool += 10;
  if (/[ -/:-@[-`{-~]/.test(password)) pool += 33;
  // Anything else (accents, other scripts, emoji) comes from a far larger set.
  if (/[^\x20-\x7e]/.test(password)) pool += 100;
  return Math.max(pool, 10);
}

/** Every pattern that starts at `start` of `chars` (lower-cased code points), with its cost in bits. */
function matchesAt(chars: string[], original: string[], start: number, pool: number): Match[] {
  const found: Match[] = [];
  const n = chars.length;
  const log2 = Math.log2;

  for (const word of COMMON_WORDS) {
    if (start + word.length > n) continue;
    let substituted = false;
    let matched = true;
    for (let k = 0; k < word.length; k += 1) {
      const c = chars[start + k]!;
      if (c === word[k]) continue;
      if (LEET[c] === word[k]) substituted = true;
      else {
        matched = false;
        break;
      }
    }
    if (!matched) continue;
    const capitalised = original[start] !== chars[start];
    found.push({
      end: start + word.length,
      bits: log2(COMMON_WORDS.length) + (capitalised ? 1 : 0) + (substituted ? 1 : 0),
      pattern: 'commonWord',
    });
  }

  // One character repeated: aaaa.
  let run = start + 1;
  while (run < n && chars[run] === chars[start]) run += 1;
  if (run - start >= 3) {
    found.push({ end: run, bits: log2(pool) + log2(run - start), pattern: 'repeat' });
  }

  // A block repeated: abcabc, Xy7#Xy7#. Priced as random characters plus the count; a
  // block of words is cheaper read as those words, which the search finds anyway.
  for (let size = 2; start + 2 * size <= n; size += 1) {
    const block = chars.slice(start, start + size).join('');
    let times = 1;
    while (
      start + (times + 1) * size <= n &&
      chars.slice(start + times * size, start + (times + 1) * size).join('') === block
    ) {
      times += 1;
    }
    if (times >= 2) {
      found.push({
        end: start + times * size,
        bits: size * log2(pool) + log2(times),
        pattern: 'repeat',
      });
    }
  }

  // Alphabet or digit runs, up or down: abcd, 4321.
  const codes = chars.map((c) => c.codePointAt(0)!);
  for (const step of [1, -1]) {
    let end = start + 1;
    while (end < n && codes[end]! - codes[end - 1]! === step && /[a-z0-9]/.test(chars[end]!)) {
      end += 1;
    }
    if (end - start >= 3 && /[a-z0-9]/.test(chars[start]!)) {
      found.push({
        end,
        bits: log2(/\d/.test(chars[start]!) ? 10 : 26) + log2(end - start) + (step < 0 ? 1 : 0),
        pattern: 'sequence',
      });
    }
  }

  // Along a keyboard row, either way: qwerty, lkjh.
  for (const row of KEYBOARD_ROWS) {
    for (const line of [row, [...row].reverse().join('')]) {
      let at = line.indexOf(chars[start]!);
      if (at < 0) continue;
      let end = start + 1;
      while (end < n && line[at + 1] === chars[end]) {
        at += 1;
        end += 1;
      }
      if (end - start >= 4) {
        found.push({ end, bits: log2(47) + log2(end - start), pattern: 'sequence' });
      }
    }
  }

  // A year from 1900 to 2099.
  if (start + 4 <= n && /^(19|20)\d\d$/.test(chars.slice(start, start + 4).join(''))) {
    found.push({ end: start + 4, bits: log2(200), pattern: 'year' });
  }
  return found;
}

/**
 * The cheapest reading of the password as a chain of patterns and single characters,
 * in bits: the fewest guesses an attacker who knows these patterns would need.
 */
function estimateBits(original: string[], pool: number): { bits: number; patterns: Pattern[] } {
  const chars = original.map((c) => c.toLowerCase());
  const n = chars.length;
  const best: { bits: number; patterns: Pattern[] }[] = [{ bits: 0, patterns: [] }];
  for (let i = 1; i <= n; i += 1) best.push({ bits: Infinity, patterns: [] });
  for (let i = 0; i < n; i += 1) {
    const here = best[i]!;
    const single = here.bits + Math.log2(pool);
    if (single < best[i + 1]!.bits) best[i + 1] = { bits: single, patterns: here.patterns };
    for (const match of matchesAt(chars, original, i, pool)) {
      const bits = here.bits + match.bits;
      if (bits < best[match.end]!.bits) {
        best[match.end] = { bits, patterns: [...here.patterns, match.pattern] };
      }
    }
  }
  return best[n]!;
}

function strength(score: PasswordScore, hint: string): PasswordStrength {
  return { score, label: PASSWORD_SCORE_LABELS[score], hint };
}

/**
 * How strong a new password is, for the meter under the field. It applies first the
 * server's rules that need no list (length, all digits, too like the owner), then
 * estimates how guessable the password is.
 */
export function passwordStrength(password: string, owner: PasswordOwner = {}): PasswordStrength {
  if (password === '') return strength(0, '');
  if (password.length > MAX_LENGTHS.password) {
    return strength(0, validationMessages.maxLength(MAX_LENGTHS.password));
  }
  if (password.length < MIN_PASSWORD_LENGTH)
    return strength(0, validationMessages.passwordTooShort);
  if (/^\d+$/.test(password)) return strength(0, validationMessages.passwordNumeric);
  const attributes: [string, string | undefined][] = [
    ['username', owner.username],
    ['email address', owner.email],
    ['email address', owner.email?.split('@')[0]],
    ['first name', owner.firstName],
    ['last name', owner.lastName],
  ];
  for (const [name, value] of attributes) {
    if (value && tooSimilar(password, value)) {
      return strength(
        0,
        name === 'username' ? validationMessages.passwordSimilar : strengthHints.similar(name),
      );
    }
  }

  const characters = [...password].slice(0, ANALYSED_LENGTH);
  const { bits, patterns } = estimateBits(characters, characterPool(password));
  const score = (1 + SCORE_THRESHOLDS.filter((threshold) => bits >= threshold).length) as
    1 | 2 | 3 | 4;
  if (score === 4) return strength(4, '');
  const worst = (['commonWord', 'sequence', 'repeat', 'year'] as const).find((p) =>
    patterns.includes(p),
  );
  return strength(score, worst ? strengthHints[worst] : strengthHints.longer);
}
