/**
 * Engine messages are lowercase fragments made to follow a prefix ("code not found or
 * expired"); on screen they stand alone, so they start with a capital and end with a stop.
 */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return trimmed;
  const capitalized = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
