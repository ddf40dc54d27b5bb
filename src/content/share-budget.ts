/**
 * Shares a token budget among several items so that the largest are shrunk first.
 *
 * Items at or under a common cap keep their full size; every larger item is cut down to that cap, which is
 * chosen as high as the total allows ("water filling"). Small results therefore reach the model whole, and
 * one huge result cannot crowd out the others.
 */

/** The allowance for each size, in the same order; their sum never exceeds `total`. */
export function shareBudget(sizes: readonly number[], total: number): number[] {
  const allowances = new Array<number>(sizes.length).fill(0);
  const order = sizes.map((_, index) => index).sort((left, right) => (sizes[left] ?? 0) - (sizes[right] ?? 0));
  let remaining = Math.max(0, Math.floor(total));
  for (let position = 0; position < order.length; position++) {
    const index = order[position] as number;
    const size = Math.max(0, sizes[index] ?? 0);
    const fairShare = Math.floor(remaining / (order.length - position));
    const allowance = Math.min(size, fairShare);
    allowances[index] = allowance;
    remaining -= allowance;
  }
  return allowances;
}
