// Shared by the tests: where the fixtures are, and clients (ferrymcp's and the official
// SDKs') connected to a fixture process over stdio. Every test runs against the ferrymcp
// package installed from its tarball, so imports name 'ferrymcp' as a user's would.
import { Client } from 'ferrymcp';
import { StdioClientTransport } from 'ferrymcp/stdio';

export const fixture = (name) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

/** The elicitation / sampling / roots answers the client-input tools expect. */
export const answers = {
  elicit: { action: 'accept', content: { name: 'Ada', color: 'blue', ok: true, response: 'yes', value: 'v', context: 'tests' } },
  sample: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' },
  roots: { roots: [{ uri: 'file:///work', name: 'work' }] },
};

/** A ferrymcp Client with the input handlers set, connected to `node <file> ...args`. */
export async function connect(file, { era = 'auto', args = [], inputs = true, env } = {}) {
  const client = new Client({ name: 'ferrymcp-tests', version: '1.0.0' }, { era });
  if (inputs) {
    client.setRequestHandler('elicitation/create', async () => answers.elicit);
    client.setRequestHandler('sampling/createMessage', async () => answers.sample);
    client.setRequestHandler('roots/list', async () => answers.roots);
  }
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [file, ...args], env }));
  return client;
}

export const textOf = (result) => result.content.map((c) => c.text).join('\n');
