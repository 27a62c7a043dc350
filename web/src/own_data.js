// Keeps the reader's own data in this browser's local storage, so it survives a reload.

const KEY = 'nadaraya-watson:own-data';

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked (some privacy settings): own data then lasts until the tab closes
  }
}

let memory = null;

const ownData = {
  save(points) {
    memory = points;
    try {
      storage()?.setItem(KEY, JSON.stringify(points));
    } catch {
      // quota or blocked: memory still holds it
    }
  },
  // { x, y } or null; anything unreadable in storage is treated as absent.
  load() {
    if (memory) return memory;
    try {
      const points = JSON.parse(storage()?.getItem(KEY) ?? 'null');
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
    storage()?.removeItem(KEY);
  },
};

export { ownData };
