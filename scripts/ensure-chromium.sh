#!/usr/bin/env bash
# The browser tests drive Debian's Chromium: npm's browser downloads cannot reach
# their hosts from CI machines, and Debian's package is the one build we can rely on.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$CHROMIUM" ] && exit 0
bash "$(dirname "$0")/ensure-debian-package.sh" chromium "$CHROMIUM"
"$CHROMIUM" --version
