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
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: install$missing with your package manager" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing$missing" >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
