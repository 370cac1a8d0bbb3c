/**
 * `ferrymcp/shared/toolNameValidation.js`: the 2025-11-25 tool-naming rule (SEP-986) as
 * the official SDK reports it. Core checks the name (`protocol::tool_names`) and words the
 * findings as the official TypeScript SDK does; this module prints them the official way.
 * `McpServer` checks every tool name it registers, as the official one does.
 */
import { checkToolName } from '../native.js';

/** Whether `name` follows the rule, and every finding (a name outside it still works). */
export function validateToolName(name: string): { isValid: boolean; warnings: string[] } {
  const { isValid, warnings } = checkToolName(name);
  return { isValid, warnings };
}

/** Prints `warnings` about `name` on `console.warn`, in the official words (nothing when there are none). */
export function issueToolNameWarning(name: string, warnings: string[]): void {
  if (warnings.length === 0) return;
  console.warn(`Tool name validation warning for "${name}":`);
  for (const warning of warnings) console.warn(`  - ${warning}`);
  console.warn('Tool registration will proceed, but this may cause compatibility issues.');
  console.warn('Consider updating the tool name to conform to the MCP tool naming standard.');
  console.warn(
    'See SEP: Specify Format for Tool Names (https://github.com/modelcontextprotocol/modelcontextprotocol/issues/986) for more details.',
  );
}

/** Checks `name`, prints what was found, and says whether it follows the rule. */
export function validateAndWarnToolName(name: string): boolean {
  const { isValid, warnings } = validateToolName(name);
  issueToolNameWarning(name, warnings);
  return isValid;
}
