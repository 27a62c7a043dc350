# Sourced by the other scripts: the environment Debian's Emscripten needs.
# Node here is not Debian's, so emcc finds its JS helpers (acorn, ...) only through NODE_PATH.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

# Runs a command silently, printing its output only if it fails.
quiet() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    cat "$log"
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}
