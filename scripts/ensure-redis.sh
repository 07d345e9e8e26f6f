#!/usr/bin/env bash
# The shared-cache test starts Debian's redis-server on a free port: two
# backend replicas share their reads through it, as through an operator's Redis.
exec bash "$(dirname "$0")/ensure-debian-package.sh" redis-server redis-server redis-cli
