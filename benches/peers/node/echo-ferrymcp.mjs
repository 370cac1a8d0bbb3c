// The benchmark's echo server on ferrymcp's npm package: the official server's code with
// its imports changed to 'ferrymcp'. Streamable HTTP is not in the package yet.
import * as sdk from 'ferrymcp';
import { StdioServerTransport } from 'ferrymcp/stdio';
import * as z from 'zod';

import { serve } from './serve.mjs';

await serve({ ...sdk, StdioServerTransport }, z);
