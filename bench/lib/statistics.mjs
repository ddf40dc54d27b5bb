/**
 * Medians, percentiles and spreads. Every figure the benchmarks report is a median over repeated
 * runs with its min–max, so one unlucky run on a shared machine cannot pass for the truth.
 */

/** The value at quantile `q` (0..1) of `values`, by linear interpolation between order statistics. */
export function quantile(values, q) {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = Float64Array.from(values).sort();
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

export const median = (values) => quantile(values, 0.5);

/** Median with min, max and interquartile range: what each table cell shows. */
export function summarise(values) {
  return {
    median: median(values),
    min: Math.min(...values),
    max: Math.max(...values),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    runs: values.length,
  };
}

/** Element-wise ratios of two equally long series measured in pairs (repetition i of each). */
export function pairedRatios(numerators, denominators) {
  if (numerators.length !== denominators.length) throw new Error('paired ratios need series of equal length');
  return numerators.map((value, index) => value / denominators[index]);
}

/** Appends `value` to the series under `key`, starting the series when it is new. */
export function addToSeries(series, key, value) {
  if (!series[key]) series[key] = [];
  series[key].push(value);
}
