#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian machine, saying what it does.
# Usage: scripts/setup.sh build   (emscripten, cmake, npm packages)
#        scripts/setup.sh test    (the above plus g++, catch2, chromium, firefox-esr, WebKitGTK's WebDriver and
#                                  a virtual display for its MiniBrowser, clang and its fuzzer runtime, and CJK
#                                  fonts for the page in Chinese)
#        scripts/setup.sh bench   (the above plus Debian's numpy and torch, the bench's Python peers)
set -euo pipefail
cd "$(dirname "$0")/.."
purpose=${1:-build}

missing=()
with_recommends=()
command -v emcc >/dev/null || missing+=(emscripten)
command -v cmake >/dev/null || missing+=(cmake)
command -v make >/dev/null || missing+=(make)
if [ "$purpose" = test ] || [ "$purpose" = bench ]; then
  command -v g++ >/dev/null || missing+=(g++)
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
  command -v chromium >/dev/null || missing+=(chromium)
  command -v firefox-esr >/dev/null || missing+=(firefox-esr)
  # Safari's engine: WebKitGTK's WebDriver (with MiniBrowser), run on a virtual display (xvfb-run needs
  # xauth). With their recommended packages (Mesa, GStreamer, fonts): the tested set.
  command -v WebKitWebDriver >/dev/null || with_recommends+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null || with_recommends+=(xvfb)
  command -v xauth >/dev/null || with_recommends+=(xauth)
  command -v clang++ >/dev/null || missing+=(clang)
  # libFuzzer and the sanitizer runtimes for clang
  dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || missing+=(libclang-rt-14-dev)
  # Chinese glyphs for the page's ?lang=zh in the headless browsers (without them: empty boxes)
  dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
fi
if [ "$purpose" = bench ]; then
  dpkg -s python3-numpy >/dev/null 2>&1 || missing+=(python3-numpy)
  dpkg -s python3-torch >/dev/null 2>&1 || missing+=(python3-torch)
fi

if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ((${#with_recommends[@]})); then
  echo "setup: installing Debian packages with their recommended ones: ${with_recommends[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  ((${#missing[@]})) || $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${with_recommends[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file (it wipes node_modules).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The bench's Lighthouse, kept out of package.json (only the bench uses it; 13.x wants Node 22).
if [ "$purpose" = bench ] && [ ! -x node_modules/.bin/lighthouse ]; then
  echo "setup: installing Lighthouse 12.2.3 for the bench"
  npm install --no-save -E --no-audit --no-fund --loglevel=error lighthouse@12.2.3
fi
