/**
 * The inventory example's storage: a real SQLite file, so reservations survive restarts and can be
 * checked from outside the server. Created and seeded the first time a file is opened.
 *
 * A reservation is one conditional `UPDATE … WHERE stock >= ?` plus an insert, in one immediate
 * transaction: whether calls arrive in parallel on one connection or from several processes sharing
 * the file, stock can never go below zero.
 */
import Database from 'better-sqlite3';

export interface Product {
  sku: string;
  name: string;
  stock: number;
}

/** What a new database starts with. */
export const SEED_PRODUCTS: readonly Product[] = [
  { sku: 'WIDGET-1', name: 'Widget', stock: 10 },
  { sku: 'GADGET-7', name: 'Gadget', stock: 3 },
  { sku: 'SPROCKET-3', name: 'Sprocket', stock: 25 },
  { sku: 'GIZMO-42', name: 'Gizmo', stock: 0 },
];

export type ReservationOutcome =
  | { kind: 'reserved'; reservationId: number; remaining: number }
  | { kind: 'unknown-sku' }
  | { kind: 'insufficient-stock'; available: number };

export interface InventoryDatabase {
  listProducts(): Product[];
  findProduct(sku: string): Product | undefined;
  /** Takes `quantity` out of stock and records the reservation, or changes nothing. */
  reserve(sku: string, quantity: number): ReservationOutcome;
  close(): void;
}

/** How long a write waits for another process holding the file's write lock before failing. */
const BUSY_TIMEOUT_MILLISECONDS = 5_000;

/** Stored in SQLite's `user_version`; 0 means a new, empty file. */
const SCHEMA_VERSION = 1;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS products (
    sku TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    stock INTEGER NOT NULL CHECK (stock >= 0)
  );
  CREATE TABLE IF NOT EXISTS reservations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    sku TEXT NOT NULL REFERENCES products (sku),
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    reserved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
  );
`;

function createAndSeed(database: Database.Database): void {
  // Immediate: two processes opening a new file at once must not both seed it.
  database
    .transaction(() => {
      if (database.pragma('user_version', { simple: true }) !== 0) return;
      database.exec(SCHEMA);
      const insert = database.prepare('INSERT INTO products (sku, name, stock) VALUES (@sku, @name, @stock)');
      for (const product of SEED_PRODUCTS) insert.run(product);
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
    })
    .immediate();
}

/** Opens (creating and seeding if new) the inventory at `path`. */
export function openInventoryDatabase(path: string): InventoryDatabase {
  let database: Database.Database;
  try {
    database = new Database(path);
  } catch (error) {
    throw new Error(
      `cannot open the inventory database at ${path}: ${error instanceof Error ? error.message : String(error)}; ` +
        'set INVENTORY_DB to a file in a writable folder',
    );
  }
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MILLISECONDS}`);
  // WAL lets readers (another server, a test, the sqlite3 shell) look while a reservation is written.
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  createAndSeed(database);

  const selectAll = database.prepare<[], Product>('SELECT sku, name, stock FROM products ORDER BY sku');
  const selectOne = database.prepare<[string], Product>('SELECT sku, name, stock FROM products WHERE sku = ?');
  const takeStock = database.prepare<[number, string, number], { stock: number }>(
    'UPDATE products SET stock = stock - ? WHERE sku = ? AND stock >= ? RETURNING stock',
  );
  const recordReservation = database.prepare<[string, number]>(
    'INSERT INTO reservations (sku, quantity) VALUES (?, ?)',
  );

  const reserveOnce = database.transaction((sku: string, quantity: number): ReservationOutcome => {
    const updated = takeStock.get(quantity, sku, quantity);
    if (updated === undefined) {
      const product = selectOne.get(sku);
      return product === undefined ? { kind: 'unknown-sku' } : { kind: 'insufficient-stock', available: product.stock };
    }
    const { lastInsertRowid } = recordReservation.run(sku, quantity);
    return { kind: 'reserved', reservationId: Number(lastInsertRowid), remaining: updated.stock };
  });

  return {
    listProducts: () => selectAll.all(),
    findProduct: (sku) => selectOne.get(sku),
    reserve: (sku, quantity) => reserveOnce.immediate(sku, quantity),
    close: () => database.close(),
  };
}
