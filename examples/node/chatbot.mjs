// A chatbot host on ferrymcp: every server of an mcp.json file, one model, tool calls.
//
//     node examples/node/chatbot.mjs [--config mcp.json] [--scripted]
//
// It reads the mcp.json file (Claude Desktop / Cursor `mcpServers`, or VS Code `servers`),
// connects to every server at once (a server that fails is reported and left out), offers
// all their tools to the model in the OpenAI Chat Completions `tools` format, runs the tool
// calls the model makes on the server that offers each tool, gives the results back, and
// loops until the model answers in text; then reads the next line (`quit` ends).
//
// The model: an OpenAI-compatible Chat Completions endpoint when OPENAI_API_KEY is set
// (OPENAI_BASE_URL, default https://api.openai.com/v1; OPENAI_MODEL, default gpt-4o-mini),
// spoken to with fetch; otherwise (or with --scripted) a scripted model that plans its tool
// calls from the words of the request, so the example runs offline and is tested.
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ClientGroup, toolResult } from 'ferrymcp';

const API = 'openai-chat';
const SYSTEM = 'You are a helpful assistant. Use the tools when they help; answer briefly.';

class OpenAIModel {
  constructor(key) {
    this.key = key;
    this.url = `${(process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '')}/chat/completions`;
    this.model = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';
  }

  async complete(messages, tools) {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: this.model, messages, tools }),
    });
    if (!response.ok) throw new Error(`the model answered ${response.status}: ${await response.text()}`);
    const answer = await response.json();
    return answer.choices[0].message;
  }
}

// Answers like a Chat Completions model, planning from the request's words: "remember X"
// stores X in the memory server, "read my note" finds the allowed directory and reads
// note.txt there, "add A and B" sums; then it reports the results.
class ScriptedModel {
  calls = 0;

  #call(name, args) {
    this.calls += 1;
    return { id: `call_${this.calls}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
  }

  async complete(messages, tools) {
    const offered = new Set(tools.map((tool) => tool.function.name));
    const start = messages.findLastIndex((m) => m.role === 'user');
    const since = messages.slice(start);
    const turn = since.filter((m) => m.role === 'tool');
    const request = since[0].content.toLowerCase();
    const results = new Map(turn.map((m) => [m.tool_call_id, m.content]));
    const asked = new Map(since.flatMap((m) => m.tool_calls ?? []).map((c) => [c.function.name, c.id]));
    const calls = [];
    if (turn.length === 0) {
      const remember = request.match(/remember (?:the )?([\w ]+?)(?:,| then|$)/);
      if (remember && offered.has('create_entities')) {
        const name = remember[1].trim().replace(/\b\w/g, (c) => c.toUpperCase());
        calls.push(this.#call('create_entities', { entities: [{ name, entityType: 'topic', observations: [request] }] }));
      }
      if (request.includes('note') && offered.has('list_allowed_directories')) {
        calls.push(this.#call('list_allowed_directories', {}));
      }
      const numbers = request.match(/add (-?\d+) and (-?\d+)/);
      if (numbers && offered.has('get-sum')) {
        calls.push(this.#call('get-sum', { a: Number(numbers[1]), b: Number(numbers[2]) }));
      }
    } else if (asked.has('list_allowed_directories') && !asked.has('read_text_file')) {
      const listing = results.get(asked.get('list_allowed_directories')) ?? '';
      const directory = listing.split('\n').map((line) => line.trim()).find((line) => line.startsWith('/')) ?? '';
      calls.push(this.#call('read_text_file', { path: join(directory, 'note.txt') }));
    }
    if (calls.length > 0) return { role: 'assistant', content: null, tool_calls: calls };
    const summary = turn.map((m) => m.content).join('; ') || 'I have no tool for that.';
    return { role: 'assistant', content: `Done. ${summary}` };
  }
}

async function chat(config, model) {
  const group = await ClientGroup.fromMcpJson(config);
  try {
    for (const status of group.servers()) {
      const note = status.error === undefined ? '' : ` (${status.error})`;
      console.error(`server ${status.name}: ${status.state}${note}`);
    }
    const tools = group.toolsFor(API);
    console.error(`${tools.length} tools offered to the model`);
    const messages = [{ role: 'system', content: SYSTEM }];
    const lines = createInterface({ input: process.stdin, terminal: false });
    for await (const raw of lines) {
      const line = raw.trim();
      if (['quit', 'exit'].includes(line.toLowerCase())) break;
      messages.push({ role: 'user', content: line });
      for (;;) {
        const reply = await model.complete(messages, tools);
        messages.push(reply);
        const calls = reply.tool_calls ?? [];
        if (calls.length === 0) {
          console.log(`assistant: ${reply.content}`);
          break;
        }
        for (const call of calls) {
          const args = JSON.parse(call.function.arguments || '{}');
          console.log(`tool call: ${call.function.name} ${JSON.stringify(args)}`);
          let result;
          try {
            result = await group.callTool(call.function.name, args);
          } catch (error) {
            // The model hears about a failed call.
            result = { content: [{ type: 'text', text: String(error.message ?? error) }], isError: true };
          }
          messages.push(...toolResult(API, call.id, result));
        }
      }
    }
    lines.close();
  } finally {
    await group.close();
  }
}

const { values } = parseArgs({
  options: { config: { type: 'string', default: 'mcp.json' }, scripted: { type: 'boolean', default: false } },
});
const key = process.env.OPENAI_API_KEY;
const model = key && !values.scripted ? new OpenAIModel(key) : new ScriptedModel();
await chat(values.config, model);
