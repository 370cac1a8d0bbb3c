/** The official v1 path `@modelcontextprotocol/sdk/shared/uriTemplate.js`. */
export { UriTemplate } from '../template.js';
