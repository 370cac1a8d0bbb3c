// Marks the CommonJS build as CommonJS: the package is "type": "module", so cjs/*.js
// would otherwise be read as ES modules.
import { writeFileSync } from 'node:fs';

writeFileSync(new URL('../cjs/package.json', import.meta.url), '{ "type": "commonjs" }\n');
