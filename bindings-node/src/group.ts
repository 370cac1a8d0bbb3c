/**
 * `ClientGroup` (a ferrymcp addition, no official counterpart in the TypeScript SDK): one
 * client per server of an `mcp.json` file (Claude Desktop / Cursor `mcpServers`, VS Code
 * `servers` with `type`), connected at once with a timeout each. A server that fails is
 * reported in `servers()` and retried, never fatal; tools keep their names unless two
 * servers offer the same one (then `SERVER__tool`); `callTool` goes to the tool's server,
 * and a server whose connection is lost is reconnected. All of it is ferrymcp-core's
 * client group; `toolsFor`, `toolDefinitions` and `toolResult` give core's shapes for the
 * LLM APIs (OpenAI Chat Completions and Responses, Anthropic Messages), byte for byte the
 * same as Python's.
 */

import { fromNative } from './errors.js';
import { connectGroup, llmToolDefinitions, llmToolResult } from './native.js';
import type { NativeGroup } from './native.js';
import type { CallToolResult, Implementation, Tool } from './types.js';

/** The LLM APIs whose shapes ferrymcp emits. */
export type LlmApi = 'openai-chat' | 'openai-responses' | 'anthropic';

/** Where one server of the group stands. */
export interface ServerStatus {
  name: string;
  state: 'connecting' | 'connected' | 'failed';
  /** The last attempt's error, when `failed`. */
  error?: string;
  /** How many times it has connected (more than one: it was reconnected). */
  connections: number;
  /** The process it started, while connected over stdio. */
  pid?: number;
}

/** One server's event: `connected`, `failed` (with the error) or `lost`. */
export interface ServerEvent {
  event: 'connected' | 'failed' | 'lost';
  error?: string;
}

export interface ClientGroupOptions {
  /** How long one connection attempt may take (default 30 s). */
  connectTimeoutMs?: number;
  /** The first wait before trying again (default 1 s); it doubles up to `maxBackoffMs` (default 30 s). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  clientInfo?: Implementation;
  /** Hears each server's events as they happen. */
  onEvent?: (name: string, event: ServerEvent) => void;
}

/** A tool as the group offers it: `tool.name` is the group's name for it. */
export interface GroupTool {
  name: string;
  server: string;
  tool: Tool;
}

const KNOWN_OPTIONS = new Set(['connectTimeoutMs', 'minBackoffMs', 'maxBackoffMs', 'clientInfo', 'onEvent']);

export class ClientGroup {
  #native: NativeGroup;
  #tools: GroupTool[] = [];

  private constructor(handle: NativeGroup) {
    this.#native = handle;
  }

  /**
   * Connects to every server of `config`: a path to an `mcp.json` file, or its content.
   * Resolves once each server has connected or failed its first attempt (see `servers()`),
   * with the tools gathered.
   */
  static async fromMcpJson(config: string | object, options: ClientGroupOptions = {}): Promise<ClientGroup> {
    for (const key of Object.keys(options)) {
      if (!KNOWN_OPTIONS.has(key)) throw new TypeError(`ClientGroup: unknown option ${JSON.stringify(key)}`);
    }
    // node:fs/promises on first use: a server that imports ferrymcp never loads it.
    const text = typeof config === 'string' ? await (await import('node:fs/promises')).readFile(config, 'utf8') : JSON.stringify(config);
    const onEvent = options.onEvent;
    let handle: NativeGroup;
    try {
      handle = await connectGroup(
        text,
        {
          connectTimeoutMs: options.connectTimeoutMs,
          minBackoffMs: options.minBackoffMs,
          maxBackoffMs: options.maxBackoffMs,
          infoJson: options.clientInfo === undefined ? undefined : JSON.stringify(options.clientInfo),
        },
        onEvent === undefined ? undefined : (name: string, eventJson: string) => onEvent(name, JSON.parse(eventJson) as ServerEvent),
      );
    } catch (error) {
      throw fromNative(error);
    }
    const group = new ClientGroup(handle);
    await group.listTools();
    return group;
  }

  /** Where each server stands now. */
  servers(): ServerStatus[] {
    return JSON.parse(this.#native.serversJson()) as ServerStatus[];
  }

  /** Gathers the tools of every connected server again. */
  async listTools(): Promise<GroupTool[]> {
    try {
      this.#tools = JSON.parse(await this.#native.listTools()) as GroupTool[];
    } catch (error) {
      throw fromNative(error);
    }
    return this.#tools;
  }

  /** The tools as last gathered, each under the group's name. */
  get tools(): Tool[] {
    return this.#tools.map((entry) => entry.tool);
  }

  /** Calls the tool the group calls `name` on its server. */
  async callTool(name: string, args: Record<string, unknown> = {}, options: { timeoutMs?: number } = {}): Promise<CallToolResult> {
    try {
      return JSON.parse(await this.#native.callTool(name, JSON.stringify(args), options.timeoutMs)) as CallToolResult;
    } catch (error) {
      throw fromNative(error);
    }
  }

  /** The tools as last gathered, as `api`'s `tools` parameter. */
  toolsFor(api: LlmApi): Record<string, unknown>[] {
    return toolDefinitions(api, this.tools);
  }

  /** Stops reconnecting and closes every connection (ending the processes started). */
  async close(): Promise<void> {
    await this.#native.close();
  }
}

/** MCP tools as `api`'s `tools` parameter. */
export function toolDefinitions(api: LlmApi, tools: readonly Tool[]): Record<string, unknown>[] {
  try {
    return JSON.parse(llmToolDefinitions(api, JSON.stringify(tools))) as Record<string, unknown>[];
  } catch (error) {
    throw fromNative(error);
  }
}

/**
 * A tool result as the items `api` takes for tool call `callId`: Chat Completions, a `tool`
 * message (then a `user` message with the images); Responses, a `function_call_output`
 * item; Anthropic, a `tool_result` block for the next user message.
 */
export function toolResult(api: LlmApi, callId: string, result: CallToolResult): Record<string, unknown>[] {
  try {
    return JSON.parse(llmToolResult(api, callId, JSON.stringify(result))) as Record<string, unknown>[];
  } catch (error) {
    throw fromNative(error);
  }
}
