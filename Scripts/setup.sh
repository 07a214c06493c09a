#!/usr/bin/env sh
# Installs what TouchTrace needs beyond Swift: GSL and pkg-config (to build), python3 and node
# (the tests run the example exec: recognizers, Examples/exec, written in both), as
# Debian/Ubuntu packages, with sudo when not root. Does nothing when they are already there.
set -eu

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: Swift 6.1 or later is required (https://www.swift.org/install/)" >&2
  exit 1
fi

missing=""
{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists gsl; } || missing="$missing libgsl-dev pkg-config"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
# shellcheck disable=SC2086
"$(dirname "$0")/apt-install.sh" setup $missing
