/**
 * `word` after "a" or "an", by how it is written (a vowel letter takes "an"): for a message that
 * names a kind it only knows at run time.
 *
 * @example
 * withArticle("account")      // "an account"
 * withArticle("bank_account") // "a bank_account"
 */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}
