/**
 * Example MCP server: a small stock room in a SQLite file. Two read-only tools and one that changes
 * state (`reserve`), so a host's consent rules have something real to decide about.
 *
 * The file is `INVENTORY_DB` (default `inventory.db` in the working directory), created and seeded
 * on first start with the SKUs in `SEED_PRODUCTS`.
 *
 * Run: `node dist/examples/servers/inventory.js` (stdio) or `... --http 0` (Streamable HTTP).
 */
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { type InventoryDatabase, openInventoryDatabase, SEED_PRODUCTS } from './inventory-database.js';
import { serveFromCommandLine } from './serve-from-command-line.js';
import { errorResult, textResult } from './tool-results.js';

const DEFAULT_DATABASE_FILE = 'inventory.db';

const seededSkus = SEED_PRODUCTS.map((product) => `${product.sku} (${product.stock})`).join(', ');

/** SKUs are matched case-insensitively: models often write `widget-1`. */
const sku = z
  .string()
  .trim()
  .min(1)
  .toUpperCase()
  .describe('The stock-keeping unit, e.g. WIDGET-1. Call list_skus to see which exist.');

const productList = z.object({
  products: z.array(z.object({ sku: z.string(), name: z.string(), stock: z.number().int() })),
});

const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

function unitsOf(count: number, productSku: string): string {
  return `${count} ${count === 1 ? 'unit' : 'units'} of ${productSku}`;
}

function unknownSku(database: InventoryDatabase, productSku: string): string {
  const known = database.listProducts().map((product) => product.sku);
  return `unknown SKU ${productSku}: known SKUs are ${known.join(', ')}; call list_skus for stock levels`;
}

function createInventoryServer(database: InventoryDatabase): McpServer {
  const server = new McpServer(
    { name: 'inventory', version: '0.1.0' },
    { instructions: `A stock room. A new inventory starts with: ${seededSkus}.` },
  );

  server.registerTool(
    'list_skus',
    {
      title: 'List SKUs',
      description: 'Lists every SKU in the inventory with its name and current stock level.',
      outputSchema: productList,
      annotations: { title: 'List SKUs', ...readsOnly },
    },
    async () => {
      const listing = { products: database.listProducts() };
      // The JSON text mirrors structuredContent for clients that read only content, as the spec advises.
      return { content: [{ type: 'text', text: JSON.stringify(listing) }], structuredContent: listing };
    },
  );

  server.registerTool(
    'get_stock_level',
    {
      title: 'Get stock level',
      description: `Returns how many units of a SKU are in stock. A new inventory holds ${seededSkus}.`,
      inputSchema: z.object({ sku }),
      annotations: { title: 'Get stock level', ...readsOnly },
    },
    async ({ sku: productSku }) => {
      const product = database.findProduct(productSku);
      if (product === undefined) return errorResult(unknownSku(database, productSku));
      return textResult(`${unitsOf(product.stock, product.sku)} in stock`);
    },
  );

  server.registerTool(
    'reserve',
    {
      title: 'Reserve stock',
      description:
        'Reserves a quantity of a SKU: takes it out of stock and records a reservation, returning its id. ' +
        'Fails, changing nothing, if the SKU is unknown or fewer units are in stock.',
      inputSchema: z.object({
        sku,
        quantity: z.number().int().positive().describe('How many units to reserve: a whole number, at least 1.'),
      }),
      annotations: {
        title: 'Reserve stock',
        readOnlyHint: false,
        // Additive: it records a new reservation and draws stock down; nothing is deleted or overwritten
        // beyond the counter the reservation accounts for.
        destructiveHint: false,
        // Each call makes another reservation.
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async ({ sku: productSku, quantity }) => {
      const outcome = database.reserve(productSku, quantity);
      switch (outcome.kind) {
        case 'unknown-sku':
          return errorResult(unknownSku(database, productSku));
        case 'insufficient-stock':
          return errorResult(
            `insufficient stock: ${outcome.available} left of ${productSku}, cannot reserve ${quantity}; ` +
              'nothing was reserved',
          );
        case 'reserved':
          return textResult(
            `reserved ${unitsOf(quantity, productSku)}: reservation ${outcome.reservationId}, ` +
              `${outcome.remaining} left in stock`,
          );
      }
    },
  );

  return server;
}

await serveFromCommandLine({
  name: 'inventory',
  open: () => {
    const database = openInventoryDatabase(resolve(process.env.INVENTORY_DB || DEFAULT_DATABASE_FILE));
    return { createServer: () => createInventoryServer(database), release: () => database.close() };
  },
});
