#!/usr/bin/env bash
# The simulator's kubectl test runs the real kubectl. These machines get it from the
# `kubectl` apt package (Google Cloud SDK / pkgs.k8s.io repository); this installs it
# where such a repository is configured and says what to do where it is not.
set -euo pipefail
if command -v kubectl >/dev/null 2>&1; then
  exit 0
fi
SUDO=""
[ "$(id -u)" = "0" ] || SUDO="sudo"
if [ -n "$SUDO" ] && ! command -v sudo >/dev/null 2>&1; then
  echo "kubectl is missing and this user cannot install it: run 'apt-get install -y kubectl' as root (with the pkgs.k8s.io apt repository), or put kubectl on PATH." >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if apt-cache show kubectl >/dev/null 2>&1; then
  $SUDO apt-get install -y -qq kubectl >/dev/null
  kubectl version --client
else
  echo "No apt repository offers kubectl here: add https://pkgs.k8s.io/core:/stable:/v1.32/deb/ (see https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/) and rerun, or put kubectl on PATH." >&2
  exit 1
fi
