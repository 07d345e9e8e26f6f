#!/usr/bin/env bash
# One browser test runs the demo portal on PostgreSQL: Debian's postgresql
# package, whose server the test starts in a temporary cluster of its own.
exec bash "$(dirname "$0")/ensure-debian-package.sh" postgresql pg_ctlcluster
