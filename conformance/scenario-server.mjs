/**
 * The server the official conformance suite's server scenarios expect, over stdio, for `mcp-host serve` to front
 * (conformance/serve.mjs). Every tool, resource, template and prompt is the one a scenario names, answering what the
 * scenario's requirements say; nothing here knows about the gateway in front of it.
 */
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** A 1 × 1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV file with no samples: the 44-byte header alone, 8 kHz mono 8-bit. */
function silentWav() {
  const wav = Buffer.alloc(44);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(8000, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36);
  return wav.toString('base64');
}
const WAV = silentWav();

const text = (value) => ({ type: 'text', text: value });
const noArguments = { type: 'object', properties: {} };
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const tools = [
  { name: 'test_simple_text', description: 'Answers simple text.', inputSchema: noArguments },
  { name: 'test_image_content', description: 'Answers an image.', inputSchema: noArguments },
  { name: 'test_audio_content', description: 'Answers audio.', inputSchema: noArguments },
  { name: 'test_embedded_resource', description: 'Answers an embedded resource.', inputSchema: noArguments },
  {
    name: 'test_multiple_content_types',
    description: 'Answers text, an image and a resource.',
    inputSchema: noArguments,
  },
  { name: 'test_tool_with_logging', description: 'Logs three messages while it runs.', inputSchema: noArguments },
  { name: 'test_error_handling', description: 'Always fails.', inputSchema: noArguments },
  { name: 'test_tool_with_progress', description: 'Reports progress 0, 50, 100 of 100.', inputSchema: noArguments },
  {
    name: 'test_sampling',
    description: 'Asks the client’s model.',
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
  },
  {
    name: 'test_elicitation',
    description: 'Asks the user for a name and an email address.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
  },
  { name: 'test_elicitation_sep1034_defaults', description: 'Asks with defaults.', inputSchema: noArguments },
  { name: 'test_elicitation_sep1330_enums', description: 'Asks with every enum form.', inputSchema: noArguments },
  {
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    },
  },
];

const resources = [
  { uri: 'test://static-text', name: 'static-text', description: 'Static text.', mimeType: 'text/plain' },
  { uri: 'test://static-binary', name: 'static-binary', description: 'A PNG.', mimeType: 'image/png' },
  { uri: 'test://watched-resource', name: 'watched-resource', description: 'Can be watched.', mimeType: 'text/plain' },
];

const prompts = [
  { name: 'test_simple_prompt', description: 'A simple prompt.' },
  {
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt embedding a resource.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
];

async function elicit(ctx, message, requestedSchema) {
  const answer = await ctx.mcpReq.elicitInput({ mode: 'form', message, requestedSchema });
  return {
    content: [text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)],
  };
}

const answers = {
  test_simple_text: () => ({ content: [text('This is a simple text response for testing.')] }),
  test_image_content: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
  test_audio_content: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
  test_embedded_resource: () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }),
  test_multiple_content_types: () => ({
    content: [
      text('Multiple content types test:'),
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        },
      },
    ],
  }),
  test_tool_with_logging: async (_args, ctx) => {
    for (const [index, message] of [
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ].entries()) {
      if (index > 0) await pause(50);
      await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: message } });
    }
    return { content: [text('Tool with logging executed successfully')] };
  },
  test_error_handling: () => ({
    isError: true,
    content: [text('This tool intentionally returns an error for testing')],
  }),
  test_tool_with_progress: async (_args, ctx) => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (const [index, progress] of [0, 50, 100].entries()) {
      if (index > 0) await pause(50);
      if (progressToken !== undefined) {
        await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      }
    }
    return { content: [text('Tool with progress executed successfully')] };
  },
  test_sampling: async ({ prompt }, ctx) => {
    const reply = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: text(String(prompt)) }],
      maxTokens: 100,
    });
    const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [text(`LLM response: ${content?.type === 'text' ? content.text : JSON.stringify(content)}`)] };
  },
  test_elicitation: async ({ message }, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({
      mode: 'form',
      message: String(message),
      requestedSchema: {
        type: 'object',
        properties: {
          username: { type: 'string', description: 'User’s response' },
          email: { type: 'string', description: 'User’s email address' },
        },
        required: ['username', 'email'],
      },
    });
    return {
      content: [text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)],
    };
  },
  test_elicitation_sep1034_defaults: (_args, ctx) =>
    elicit(ctx, 'Please review and update the form fields with defaults', {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: {
          type: 'string',
          description: 'User status',
          enum: ['active', 'inactive', 'pending'],
          default: 'active',
        },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    }),
  test_elicitation_sep1330_enums: (_args, ctx) =>
    elicit(ctx, 'Please select options from the enum fields', {
      type: 'object',
      properties: {
        untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        titledSingle: {
          type: 'string',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: {
          type: 'string',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
        titledMulti: {
          type: 'array',
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
      required: [],
    }),
  json_schema_2020_12_tool: (args) => ({ content: [text(`Received: ${JSON.stringify(args)}`)] }),
};

function readResource(uri) {
  if (uri === 'test://static-text') {
    return { contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] };
  }
  if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
  if (uri === 'test://watched-resource') return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched.' }] };
  const templated = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (templated) {
    const id = decodeURIComponent(templated[1]);
    const data = { id, templateTest: true, data: `Data for ID: ${id}` };
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }] };
  }
  throw new Error(`no resource ${uri}`);
}

function getPrompt(name, args) {
  if (name === 'test_simple_prompt') {
    return { messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }] };
  }
  if (name === 'test_prompt_with_arguments') {
    return {
      messages: [{ role: 'user', content: text(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`) }],
    };
  }
  if (name === 'test_prompt_with_embedded_resource') {
    return {
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
          },
        },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    };
  }
  if (name === 'test_prompt_with_image') {
    return {
      messages: [
        { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
        { role: 'user', content: text('Please analyze the image above.') },
      ],
    };
  }
  throw new Error(`no prompt ${name}`);
}

const server = new Server(
  { name: 'conformance-scenarios', version: '1.0.0' },
  {
    capabilities: {
      tools: {},
      resources: { subscribe: true },
      prompts: {},
      logging: {},
      completions: {},
    },
  },
);
const subscriptions = new Set();

server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', async (request, ctx) => {
  const answer = answers[request.params.name];
  if (answer === undefined) return { isError: true, content: [text(`no tool ${request.params.name}`)] };
  return answer(request.params.arguments ?? {}, ctx);
});
server.setRequestHandler('resources/list', () => ({ resources }));
server.setRequestHandler('resources/templates/list', () => ({
  resourceTemplates: [
    {
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      description: 'Data for an id.',
      mimeType: 'application/json',
    },
  ],
}));
server.setRequestHandler('resources/read', (request) => readResource(request.params.uri));
server.setRequestHandler('resources/subscribe', (request) => {
  subscriptions.add(request.params.uri);
  return {};
});
server.setRequestHandler('resources/unsubscribe', (request) => {
  subscriptions.delete(request.params.uri);
  return {};
});
server.setRequestHandler('prompts/list', () => ({ prompts }));
server.setRequestHandler('prompts/get', (request) => getPrompt(request.params.name, request.params.arguments ?? {}));
server.setRequestHandler('completion/complete', (request) => {
  const typed = request.params.argument.value;
  const values = ['paris', 'park', 'party'].filter((value) => value.startsWith(typed));
  return { completion: { values, total: values.length, hasMore: false } };
});
server.setRequestHandler('logging/setLevel', () => ({}));

await server.connect(new StdioServerTransport());
