/**
 * The warning for a property a provider's answers do not carry (docs/decisions.md#vocabulary): said as
 * Loam's limit, never as the source's (KSSL holds calcium; whether Loam reads it is Loam's choice). A
 * quantity served only by method (extractable phosphorus: Mehlich-3, Olsen) names the ids to ask for.
 */
export function notServedWarning(provider: string, id: string, served: readonly string[]): string {
  const byMethod = served.filter((s) => s.startsWith(`${id}_`));
  if (byMethod.length > 0) return `Loam serves '${id}' from ${provider} only by method, as different quantities: ask for ${byMethod.join(" or ")}.`;
  return `Loam does not serve '${id}' from ${provider}; it serves ${served.join(", ")}.`;
}
