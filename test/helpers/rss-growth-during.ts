/**
 * Runs `work` while sampling this process's resident memory every `intervalMs`, and once more when it is done: what
 * `work` gave, and how many MB the peak rose above the memory before it.
 */
export async function rssGrowthDuring<T>(
  work: () => Promise<T>,
  intervalMs = 20,
): Promise<{ value: T; growthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, intervalMs);
  try {
    const value = await work();
    sample();
    return { value, growthMb: (peak - before) / (1024 * 1024) };
  } finally {
    clearInterval(sampler);
  }
}
