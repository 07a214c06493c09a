#!/bin/sh
# Checks the Kotlin files of a `touchtrace export` directory:
#   1. compiles the core, the conformance check and the Android adapter with kotlinc, the
#      adapter type-checked against the minimal Android SDK stubs beside this script
#      (android/**/*.java: Java sources, so Kotlin reads them as it reads android.jar);
#   2. runs the conformance check on DIR/vectors.txt (exit 1 on any difference).
# kotlinc must be 1.3 or later (KOTLINC overrides the command). The stubs are test support:
# they are never part of an export.
#
# Usage: Scripts/export-stubs/check-kotlin.sh DIR
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 EXPORT_DIR" >&2
  exit 64
fi
dir=$1
kotlinc=${KOTLINC:-kotlinc}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# One compilation (the stubs are read, not compiled: the jar has no android classes, and the
# check never loads the adapter). Warnings fail the check: the generated code compiles cleanly.
find "$dir/kotlin" -name '*.kt' >"$work/sources"
find "$here/android" -name '*.java' >>"$work/sources"
if ! "$kotlinc" -Werror -include-runtime -d "$work/check.jar" @"$work/sources" 2>"$work/log"; then
  grep -v 'Options -Xverify:none and -noverify were deprecated' "$work/log" >&2 || true
  echo "check-kotlin: kotlinc failed on $dir/kotlin" >&2
  exit 1
fi
java -jar "$work/check.jar" "$dir/vectors.txt"
