/**
 * Vercel's "stega" format, which Strapi's content source maps use (`@vercel/stega`'s `vercelStegaCombine(text, json,
 * false)`): JSON hidden after a string as zero-width characters, which a preview front end reads back and a browser
 * does not show. Four U+200B open it; then each character of the JSON text (ASCII: Strapi encodes a URL-encoded
 * string) is its code in base 4, four digits, each digit one of U+200B, U+200C, U+200D, U+FEFF.
 */
const DIGITS = ['\u200b', '\u200c', '\u200d', '\ufeff'];
const OPENING = DIGITS[0].repeat(4);

/** `text` followed by `json` in the hidden form; always added (Strapi passes `skip: false`: even URLs and dates). */
export function stegaCombine(text: string, json: unknown): string {
  const source = JSON.stringify(json);
  let hidden = OPENING;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    // The format carries one byte per character; Strapi's payload is URL-encoded, so this never happens there.
    if (code > 255) throw new Error(`stega: only ASCII can be encoded (${JSON.stringify(source[i])} in ${source})`);
    for (const digit of code.toString(4).padStart(4, '0')) hidden += DIGITS[Number(digit)];
  }
  return text + hidden;
}
