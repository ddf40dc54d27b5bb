/**
 * The inventory example against its compiled process and a real SQLite file: lookups, reservations checked in the
 * database itself, refusals that change nothing, and no overselling under parallel calls, from one process or from
 * two sharing the file. One server serves the file's tests; the file goes back to its seeded stock after each test,
 * since the server keeps nothing but what the file holds.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  connectOverHttp,
  connectOverStdio,
  type HttpServerProcess,
  resultText,
  startOverHttp,
} from './compiled-servers.js';

const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The stock a new database is seeded with, as the README describes it. */
const SEEDED_STOCK: Record<string, number> = { 'WIDGET-1': 10, 'GADGET-7': 3, 'SPROCKET-3': 25, 'GIZMO-42': 0 };

let folder: string;
let databasePath: string;
let fileExistedBeforeStart: boolean;
/** The server most tests talk to, started once for the file. */
let client: Client;
/** Servers a test starts besides the shared one; closed after it. */
const extraClients: Client[] = [];

async function connect(): Promise<Client> {
  return connectOverStdio('inventory', { INVENTORY_DB: databasePath });
}

async function connectExtra(): Promise<Client> {
  const extra = await connect();
  extraClients.push(extra);
  return extra;
}

/** Reads straight from the file, not through the server. */
function query<Row>(sql: string, ...parameters: unknown[]): Row[] {
  const database = new Database(databasePath, { readonly: true });
  try {
    return database.prepare(sql).all(...parameters) as Row[];
  } finally {
    database.close();
  }
}

function stockInDatabase(sku: string): number {
  const [row] = query<{ stock: number }>('SELECT stock FROM products WHERE sku = ?', sku);
  if (row === undefined) throw new Error(`${sku} is not in the database`);
  return row.stock;
}

/** Puts the file back to its seeded stock with no reservations, as a fresh server would find it. */
function restoreSeededStock(): void {
  const database = new Database(databasePath);
  try {
    database.pragma('busy_timeout = 5000');
    database
      .transaction(() => {
        database.prepare('DELETE FROM reservations').run();
        const setStock = database.prepare('UPDATE products SET stock = ? WHERE sku = ?');
        for (const [sku, stock] of Object.entries(SEEDED_STOCK)) setStock.run(stock, sku);
      })
      .immediate();
  } finally {
    database.close();
  }
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'inventory-example-'));
  databasePath = join(folder, 'inventory.db');
  fileExistedBeforeStart = existsSync(databasePath);
  client = await connect();
});

afterEach(async () => {
  await Promise.all(extraClients.splice(0).map((extra) => extra.close()));
  restoreSeededStock();
});

afterAll(async () => {
  await client?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('inventory example', () => {
  it('creates and seeds the database file on first start', async () => {
    expect(fileExistedBeforeStart).toBe(false);
    expect(existsSync(databasePath)).toBe(true);
    const listing = await client.callTool({ name: 'list_skus', arguments: {} });
    expect(listing.isError).toBeFalsy();
    const products = (listing.structuredContent as { products: { sku: string; stock: number }[] }).products;
    expect(products).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sku: 'WIDGET-1', stock: 10 }),
        expect.objectContaining({ sku: 'GADGET-7', stock: 3 }),
      ]),
    );
    // The text block mirrors the structured content.
    expect(JSON.parse(resultText(listing))).toEqual(listing.structuredContent);
    expect(stockInDatabase('WIDGET-1')).toBe(10);
  });

  it('looks up a stock level, with the SKU matched case-insensitively', async () => {
    const result = await client.callTool({ name: 'get_stock_level', arguments: { sku: 'widget-1' } });
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe('10 units of WIDGET-1 in stock');
  });

  it('answers an unknown SKU with an error result naming it', async () => {
    for (const call of [
      { name: 'get_stock_level', arguments: { sku: 'NOPE-9' } },
      { name: 'reserve', arguments: { sku: 'NOPE-9', quantity: 1 } },
    ]) {
      const result = await client.callTool(call);
      expect(result.isError, call.name).toBe(true);
      expect(resultText(result), call.name).toMatch(/unknown SKU NOPE-9/);
    }
    expect(query('SELECT * FROM reservations')).toEqual([]);
  });

  it('reserves: lowers the stock in the database and records the reservation', async () => {
    const result = await client.callTool({ name: 'reserve', arguments: { sku: 'WIDGET-1', quantity: 2 } });
    expect(result.isError).toBeFalsy();
    const reservationId = Number(/reservation (\d+)/.exec(resultText(result))?.[1]);
    expect(resultText(result)).toMatch(/8 left in stock/);

    expect(stockInDatabase('WIDGET-1')).toBe(8);
    expect(query('SELECT id, sku, quantity FROM reservations')).toEqual([
      { id: reservationId, sku: 'WIDGET-1', quantity: 2 },
    ]);
    const after = await client.callTool({ name: 'get_stock_level', arguments: { sku: 'WIDGET-1' } });
    expect(resultText(after)).toBe('8 units of WIDGET-1 in stock');
  });

  it('refuses a reservation larger than the stock and changes nothing', async () => {
    const result = await client.callTool({ name: 'reserve', arguments: { sku: 'GADGET-7', quantity: 4 } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^insufficient stock: 3 left/);
    expect(stockInDatabase('GADGET-7')).toBe(3);
    expect(query('SELECT * FROM reservations')).toEqual([]);
  });

  it('accepts only a positive whole quantity', async () => {
    for (const quantity of [0, -1, 1.5, '2']) {
      const result = await client.callTool({ name: 'reserve', arguments: { sku: 'WIDGET-1', quantity } });
      expect(result.isError, `quantity ${JSON.stringify(quantity)}`).toBe(true);
    }
    expect(stockInDatabase('WIDGET-1')).toBe(10);
  });

  it('never oversells under parallel reservations: 5 × 3 on a stock of 10 → exactly 3 succeed', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.callTool({ name: 'reserve', arguments: { sku: 'WIDGET-1', quantity: 3 } }),
      ),
    );
    const succeeded = results.filter((result) => !result.isError);
    const refused = results.filter((result) => result.isError);
    expect(succeeded).toHaveLength(3);
    for (const result of refused) expect(resultText(result)).toMatch(/^insufficient stock: 1 left/);
    expect(stockInDatabase('WIDGET-1')).toBe(1);
    expect(query<{ total: number }>('SELECT sum(quantity) AS total FROM reservations')).toEqual([{ total: 9 }]);
  });

  it('never oversells when two server processes share the file', async () => {
    const first = client;
    const second = await connectExtra();
    const reserveThree = (client: Client) =>
      client.callTool({ name: 'reserve', arguments: { sku: 'SPROCKET-3', quantity: 3 } });
    const results = await Promise.all([
      ...Array.from({ length: 5 }, () => reserveThree(first)),
      ...Array.from({ length: 5 }, () => reserveThree(second)),
    ]);
    // 25 in stock: 8 reservations of 3 fit, 2 do not.
    expect(results.filter((result) => !result.isError)).toHaveLength(8);
    expect(stockInDatabase('SPROCKET-3')).toBe(1);
    expect(query<{ count: number }>('SELECT count(*) AS count FROM reservations')).toEqual([{ count: 8 }]);
  });

  it('keeps reservations across restarts instead of seeding again', async () => {
    await client.callTool({ name: 'reserve', arguments: { sku: 'GADGET-7', quantity: 3 } });
    await client.close();
    // The restarted server serves the remaining tests.
    client = await connect();
    const result = await client.callTool({ name: 'get_stock_level', arguments: { sku: 'GADGET-7' } });
    expect(resultText(result)).toBe('0 units of GADGET-7 in stock');
  });

  it('declares honest annotations and titles', async () => {
    const { tools } = await client.listTools();
    const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(annotations).toEqual({
      list_skus: { title: 'List SKUs', ...readsOnly },
      get_stock_level: { title: 'Get stock level', ...readsOnly },
      reserve: {
        title: 'Reserve stock',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    });
    for (const tool of tools) expect(tool.title, tool.name).toBe(tool.annotations?.title);
    expect(tools.find((tool) => tool.name === 'list_skus')?.outputSchema).toBeDefined();
  });

  it('serves over Streamable HTTP too, with sessions sharing one database', async () => {
    let server: HttpServerProcess | undefined;
    try {
      server = await startOverHttp('inventory', { INVENTORY_DB: databasePath });
      const first = await connectOverHttp(server.url);
      const second = await connectOverHttp(server.url);
      try {
        await first.client.callTool({ name: 'reserve', arguments: { sku: 'WIDGET-1', quantity: 4 } });
        const seen = await second.client.callTool({ name: 'get_stock_level', arguments: { sku: 'WIDGET-1' } });
        expect(resultText(seen)).toBe('6 units of WIDGET-1 in stock');
      } finally {
        await first.client.close();
        await second.client.close();
      }
      expect(stockInDatabase('WIDGET-1')).toBe(6);
    } finally {
      await server?.stop();
    }
  });
});
