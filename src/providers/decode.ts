/**
 * Text of a USDA download's bytes. WSS and Lab Data Mart files are Windows-1252 in general (ASCII in
 * practice). Valid UTF-8 is taken as UTF-8; anything else is decoded as Windows-1252, which maps every
 * byte, so no input fails to decode.
 */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}
