/** Under MongoDB's 100 levels and the other depth limits that would be a 5xx; checked before parsing. */
export const MAX_JSON_DEPTH = 64;

/** true when `text` nests objects/arrays more than MAX_JSON_DEPTH levels deep (the outermost value is level 1). */
export function exceedsJsonDepth(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}
