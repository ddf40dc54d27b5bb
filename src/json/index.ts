/** Bounds for JSON that comes from outside the host (servers, models, files): the lowest layer, importing nothing. */
export {
  describeTooDeep,
  exceedsJsonDepth,
  JsonTooDeepError,
  MAX_JSON_DEPTH,
  parseJsonWithinDepth,
  stringifyJsonWithinDepth,
  textExceedsJsonDepth,
} from './json-depth.js';
