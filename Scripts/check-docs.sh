#!/usr/bin/env bash
# Builds the symbol graphs and converts every module's DocC catalog with warnings as errors
# (broken ``symbol`` links, undocumented parameters in documented symbols, …). Package-level
# symbols are included: the modules only the command line uses (TouchReports, TouchExec,
# TouchCapture) are `package`, not public, and their catalogs document them; so are SPI symbols
# (TouchCapture's request parser, public only to the fuzz package under @_spi(Fuzz)).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
swift package dump-symbol-graph --minimum-access-level package --include-spi-symbols >"$out/dump.log" 2>&1 || { cat "$out/dump.log"; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$out/dump.log" | tail -1)
[ -n "$graphs" ] || graphs=.build/symbolgraph
DOCC=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
status=0
for catalog in Sources/*/Documentation.docc; do
  module=$(basename "$(dirname "$catalog")")
  mkdir -p "$out/$module"
  cp "$graphs/$module".*symbols.json "$out/$module/" 2>/dev/null || true
  if ! "$DOCC" convert "$catalog" --additional-symbol-graph-dir "$out/$module" \
      --fallback-display-name "$module" --fallback-bundle-identifier "touchtrace.$module" \
      --output-path "$out/$module.doccarchive" --warnings-as-errors >"$out/$module.log" 2>&1; then
    echo "docs: $module has problems:" >&2
    grep -E "warning|error" "$out/$module.log" >&2 || cat "$out/$module.log" >&2
    status=1
  else
    echo "docs: $module ok"
  fi
done
exit $status
