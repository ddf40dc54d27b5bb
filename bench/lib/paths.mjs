/** Where things are, relative to this file, so the benchmarks run from any working directory. */
import { fileURLToPath } from 'node:url';

export const benchDirectory = fileURLToPath(new URL('..', import.meta.url));
export const projectDirectory = fileURLToPath(new URL('../..', import.meta.url));
export const stdioServerPath = fileURLToPath(new URL('../servers/stdio-server.mjs', import.meta.url));
export const workersDirectory = fileURLToPath(new URL('../workers/', import.meta.url));
/** The compiled library (`npm run build`); benchmarks import it, never the TypeScript sources. */
export const distUrl = new URL('../../dist/src/', import.meta.url);
