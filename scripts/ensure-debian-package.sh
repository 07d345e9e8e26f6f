#!/usr/bin/env bash
# Usage: ensure-debian-package.sh PACKAGE COMMAND...
# Installs Debian's PACKAGE when one of the COMMANDs is missing: the tests
# drive real Chromium, Redis and PostgreSQL, and Debian's packages are the
# builds CI machines can always install.
set -euo pipefail
package="$1"
shift
missing=0
for command in "$@"; do
  command -v "$command" >/dev/null 2>&1 || [ -x "$command" ] || missing=1
done
[ "$missing" = "0" ] && exit 0
if [ "$(id -u)" != "0" ] && ! command -v sudo >/dev/null 2>&1; then
  echo "$* missing and this user cannot install them: run 'apt-get install -y $package' as root." >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
echo "Installing Debian's $package package for the tests..."
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "$package" >/dev/null
