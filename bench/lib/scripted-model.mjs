/**
 * The project's scripted provider, wrapped for benchmarks: it forgets the requests it has seen
 * (the stand-in keeps a deep copy of each for tests to assert on, which would grow memory
 * quadratically over a long conversation and be charged to the host), and it times itself so
 * model time can be taken out of host time.
 */
import { distUrl } from './paths.mjs';

export async function createBenchModel(script) {
  const { createScriptedProvider } = await import(new URL('testing/scripted-provider.js', distUrl).href);
  const scripted = createScriptedProvider(script, { keepRequests: false });
  const model = {
    provider: scripted.provider,
    model: scripted.model,
    /** Milliseconds spent inside `generate`, summed. */
    modelMs: 0,
    /** The conversation array the loop is appending to, as last seen. */
    lastMessages: undefined,
    async generate(request, options) {
      const started = performance.now();
      try {
        model.lastMessages = request.messages;
        return await scripted.generate(request, options);
      } finally {
        model.modelMs += performance.now() - started;
      }
    },
  };
  return model;
}
