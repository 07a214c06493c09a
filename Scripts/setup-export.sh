#!/usr/bin/env sh
# Installs what `make check-export` needs beyond the toolkit: the Kotlin compiler and a JDK, the
# TypeScript compiler (Debian packages kotlin, default-jre-headless, node-typescript), with sudo
# when not root. Does nothing when they are already there.
set -eu
missing=""
command -v kotlinc >/dev/null 2>&1 || missing="$missing kotlin"
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
command -v tsc >/dev/null 2>&1 || missing="$missing node-typescript"
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-export: install$missing with your package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup-export: installing$missing" >&2
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
