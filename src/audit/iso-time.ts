/**
 * `Date#toISOString` for a time in milliseconds, formatting the date and the second only when they change: a call's
 * audit record carries two time stamps, and formatting a date whole costs microseconds each on a loaded machine.
 */

let cachedSecond = Number.NaN;
/** `YYYY-MM-DDTHH:MM:SS.` of `cachedSecond`; empty when its year does not fit four digits. */
let cachedPrefix = '';

export function isoTime(milliseconds: number): string {
  const second = Math.floor(milliseconds / 1000);
  if (second !== cachedSecond) {
    const whole = new Date(second * 1000).toISOString();
    cachedSecond = second;
    cachedPrefix = whole.length === 24 ? whole.slice(0, 20) : '';
  }
  const millis = milliseconds - second * 1000;
  if (cachedPrefix === '' || !Number.isInteger(millis)) return new Date(milliseconds).toISOString();
  return `${cachedPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
