import { HOST_TOOL_NAMESPACE } from '../config/reserved-names.js';

/** Name under which the host's own tools appear in the catalog (they have no MCP server); no server may take it. */
export const HOST_TOOLS_SERVER = HOST_TOOL_NAMESPACE;
