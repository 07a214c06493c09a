#!/usr/bin/env sh
# Installs what `make check-export` needs beyond the toolkit: the Kotlin compiler and a JDK, the
# TypeScript compiler (Debian packages kotlin, default-jre-headless, node-typescript), with sudo
# when not root. Does nothing when they are already there.
set -eu
missing=""
command -v kotlinc >/dev/null 2>&1 || missing="$missing kotlin"
command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
command -v tsc >/dev/null 2>&1 || missing="$missing node-typescript"
# shellcheck disable=SC2086
"$(dirname "$0")/apt-install.sh" setup-export $missing
