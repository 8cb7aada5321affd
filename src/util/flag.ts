import { UsageError } from "../errors.js";
import { printable } from "./text.js";

/**
 * A yes/no option given as text or boolean (`--agent-opt sample=true`): only true and false are
 * accepted, anything else is a UsageError naming the option; undefined gives `dflt`.
 */
export function booleanValue(name: string, value: unknown, dflt: boolean): boolean {
  if (value === undefined) return dflt;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new UsageError(
    `${name} must be true or false, got ${JSON.stringify(printable(String(value)))}`,
  );
}
