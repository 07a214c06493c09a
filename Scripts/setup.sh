#!/usr/bin/env sh
# Installs what TouchTrace needs beyond Swift: GSL and pkg-config (Debian/Ubuntu packages),
# with sudo when not root. Does nothing when they are already there.
set -eu

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: Swift 6.1 or later is required (https://www.swift.org/install/)" >&2
  exit 1
fi

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists gsl; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: install GSL (libgsl-dev) and pkg-config with your package manager" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing libgsl-dev and pkg-config" >&2
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libgsl-dev pkg-config >/dev/null
