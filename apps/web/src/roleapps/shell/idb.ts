// The role apps' one IndexedDB database (issue 22): the offline outbox and the shift data kept for offline reading.
// Raw IndexedDB behind four small promises, so neither needs a library; tests run it on fake-indexeddb.
const DB_NAME = "workmetrics-roleapps";
const VERSION = 1;
export const OUTBOX = "outbox";
export const SHIFT_CACHE = "shift_cache";

let dbPromise: Promise<IDBDatabase> | null = null;

export function openDb(): Promise<IDBDatabase> {
  dbPromise ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(OUTBOX)) db.createObjectStore(OUTBOX, { keyPath: "key" });
      if (!db.objectStoreNames.contains(SHIFT_CACHE)) db.createObjectStore(SHIFT_CACHE, { keyPath: "id" });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }).catch((err) => {
    dbPromise = null;
    throw err;
  });
  return dbPromise;
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function store(name: string, mode: IDBTransactionMode): Promise<IDBObjectStore> {
  const db = await openDb();
  return db.transaction(name, mode).objectStore(name);
}

export async function idbGetAll<T>(name: string): Promise<T[]> {
  return done((await store(name, "readonly")).getAll()) as Promise<T[]>;
}

export async function idbGet<T>(name: string, key: string): Promise<T | undefined> {
  return done((await store(name, "readonly")).get(key)) as Promise<T | undefined>;
}

// Resolves once the write is durable (the transaction completed), not merely queued.
export async function idbPut<T>(name: string, value: T): Promise<void> {
  const s = await store(name, "readwrite");
  await new Promise<void>((resolve, reject) => {
    s.put(value);
    s.transaction.oncomplete = () => resolve();
    s.transaction.onerror = () => reject(s.transaction.error);
    s.transaction.onabort = () => reject(s.transaction.error);
  });
}

export async function idbDelete(name: string, key: string): Promise<void> {
  const s = await store(name, "readwrite");
  await new Promise<void>((resolve, reject) => {
    s.delete(key);
    s.transaction.oncomplete = () => resolve();
    s.transaction.onerror = () => reject(s.transaction.error);
  });
}

// Tests start each case from an empty database.
export async function resetDbForTests(): Promise<void> {
  const db = await openDb();
  db.close();
  dbPromise = null;
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase(DB_NAME);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
  });
}
