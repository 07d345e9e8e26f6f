#!/usr/bin/env bash
# The browser tests drive Debian's Chromium: npm's browser downloads cannot reach
# their hosts from CI machines, and Debian's package is the one build we can rely on.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi
if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null 2>&1; then
  echo "Chromium is missing at $CHROMIUM and this user cannot install it: run 'apt-get install -y chromium' as root, or set CHROMIUM_PATH." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
echo "Installing Debian's chromium package for the browser tests..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
"$CHROMIUM" --version
