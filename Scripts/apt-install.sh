#!/usr/bin/env sh
# Installs Debian/Ubuntu packages for the script named first, whose name starts the messages,
# with sudo when not root:
#
#   Scripts/apt-install.sh setup libgsl-dev pkg-config
#
# Does nothing without packages; fails, naming them, where there is no apt-get.
set -eu
who=$1
shift
[ $# -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$who: install $* with your package manager" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "$who: installing $*" >&2
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
