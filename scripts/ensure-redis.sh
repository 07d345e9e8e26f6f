#!/usr/bin/env bash
# The shared-cache test starts Debian's redis-server: two backend replicas
# share their reads through it, as they would through an operator's Redis.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null 2>&1; then
  echo "redis-server is missing and this user cannot install it: run 'apt-get install -y redis-server' as root." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
echo "Installing Debian's redis-server package for the shared-cache test..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# The package's service is not started: the test runs its own server on a free port.
RUNLEVEL=1 $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
redis-server --version
