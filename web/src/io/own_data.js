// Keeps the reader's own data in this browser's local storage, so it survives a reload. Each embed has
// its own key (setScope), so two embeds of one lesson never overwrite each other's data; where the
// browser refuses storage (privacy settings, a sandboxed frame), the data lives in memory only, and
// isPersistent says so.

const BASE_KEY = 'nadaraya-watson:own-data';
let key = BASE_KEY;
let memory = null;
let persistent = true;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked: own data then lasts until the tab closes
  }
}

const ownData = {
  // scope: null for the page itself; an embed's id (its id= parameter, or its address as first loaded).
  setScope(scope) {
    key = scope === null ? BASE_KEY : `${BASE_KEY}:embed:${scope}`;
    memory = null;
  },
  save(points) {
    memory = points;
    try {
      const store = storage();
      if (!store) throw new Error('no storage');
      store.setItem(key, JSON.stringify(points));
      persistent = true;
    } catch {
      persistent = false; // quota or blocked: memory still holds it
      try {
        storage()?.removeItem(key); // (older data stored there would come back on a reload)
      } catch {
        // blocked: nothing is stored
      }
    }
  },
  // { x, y } or null; anything unreadable in storage is treated as absent.
  load() {
    if (memory) return memory;
    try {
      const points = JSON.parse(storage()?.getItem(key) ?? 'null');
      if (points && Array.isArray(points.x) && Array.isArray(points.y) && points.x.length === points.y.length) {
        memory = points;
      }
    } catch {
      memory = null;
    }
    return memory;
  },
  clear() {
    memory = null;
    try {
      storage()?.removeItem(key);
    } catch {
      // blocked: there was nothing stored
    }
  },
  // Whether the data last saved survives a reload (false when the browser refused to store it).
  get isPersistent() { return persistent; },
};

export { ownData };
