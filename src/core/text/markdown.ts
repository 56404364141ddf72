// Text from the service or a notebook shown inside Markdown (hovers, completion documentation): every
// value is data, never markup. Control characters and line breaks become spaces, the length is bounded,
// and every ASCII punctuation character is backslash-escaped (CommonMark allows escaping any of them), so
// no emphasis, link, image, HTML tag, entity, code span or bare URL autolink can form from the value.

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** text on one line, at most `max` characters (an ellipsis marks a cut); controls and breaks as spaces. */
export function boundedLine(text: string, max: number): string {
  const flat = text.replace(/[\p{Cc}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, ' ');
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** A value as literal Markdown text: bounded to one line of at most `max` characters, then escaped. */
export function markdownText(text: string, max = 200): string {
  return boundedLine(text, max).replace(PUNCTUATION, '\\$&');
}
