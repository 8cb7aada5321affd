/**
 * Text from files and arguments shown safely in one-line messages: control characters (line
 * breaks, escape sequences that would recolour or clear a terminal, NUL, DEL, C1 controls) are
 * written as escapes, so a message is always one printable line.
 */
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

export function printable(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

/** The first line of an error message, made printable (what the CLI and scripts print). */
export function messageLine(message: string): string {
  return printable(message.split("\n")[0] ?? "");
}
