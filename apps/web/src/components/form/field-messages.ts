/**
 * What shows under a field: the rules it breaks, then what the server said of it on the
 * last submit (a taken name, which only the server knows), each message once. The red
 * list above the form names them all; this puts each beside the field to fix.
 */
export function fieldMessages(
  problems: readonly string[],
  serverMessages: readonly string[] = [],
): { error: boolean; helperText: string | undefined } {
  const all = [...new Set([...problems, ...serverMessages])];
  return { error: all.length > 0, helperText: all.length > 0 ? all.join(' ') : undefined };
}
