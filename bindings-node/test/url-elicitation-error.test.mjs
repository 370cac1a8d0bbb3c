// A tool that needs URL elicitations first (-32042, the 2025-era throw style) reaches the
// caller of ferrymcp's client as the typed `UrlElicitationRequiredError`, as both official
// clients raise it: the official v2 server over a real stdio child, ferrymcp's v2 and v1
// import paths.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, McpError, UrlElicitationRequiredError } from 'ferrymcp';
import { Client as V1Client } from 'ferrymcp/client/index.js';
import { UrlElicitationRequiredError as V1UrlElicitationRequiredError } from 'ferrymcp/types.js';
import { StdioClientTransport } from 'ferrymcp/stdio';

import { fixture } from './helpers.mjs';

for (const [what, ClientClass, ErrorClass] of [
  ['v2 import', Client, UrlElicitationRequiredError],
  ['v1 import', V1Client, V1UrlElicitationRequiredError],
]) {
  test(`${what}: the official server's UrlElicitationRequiredError is raised as the typed error, its elicitations readable`, async () => {
    const client = new ClientClass({ name: 'url-elicitation', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture('official-url-elicitation.mjs')] }));
    try {
      assert.equal(client.getProtocolEra(), 'legacy');
      await assert.rejects(client.callTool({ name: 'confirm_payment', arguments: { cartId: 'cart-42' } }), (error) => {
        assert.ok(error instanceof ErrorClass, `${error?.constructor?.name}: ${error}`);
        assert.ok(error instanceof McpError);
        assert.equal(error.code, -32042);
        assert.deepEqual(error.elicitations, [
          { mode: 'url', message: 'Open the link to confirm payment', url: 'https://example.com/confirm-payment?cart=cart-42', elicitationId: 'el-42' },
        ]);
        return true;
      });
    } finally {
      await client.close();
    }
  });
}
