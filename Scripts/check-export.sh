#!/usr/bin/env bash
# make check-export: every supported recognizer (and causal filters in front of them) tuned on
# samples/, exported with `touchtrace export --configuration`, and each exported core built and
# run on the conformance vectors (samples/ and RANDOM seeded random contacts) in Swift (swiftc),
# Kotlin (kotlinc on the JDK) and TypeScript (tsc --strict; the emitted JavaScript and tsc's
# output both run in Node): zero differences from the replay, fed sample by sample and with
# tick() between samples. Canaries: a core with one comparison changed must fail in each
# language. The Android adapter type-checks against stubs of the Android API; the Pointer Events
# binding runs in headless Chromium with pen pressures (Scripts/check-export-web.py).
#
# Usage: Scripts/check-export.sh TOUCHTRACE [OUT_DIR]   (RANDOM_CONTACTS, default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
TOUCHTRACE=$(realpath "${1:-.build/release/touchtrace}")
OUT=${2:-out/export}
CONTACTS=${RANDOM_CONTACTS:-10000}

need() { command -v "$1" >/dev/null 2>&1 || { echo "check-export: $1 is missing ($2)" >&2; exit 1; }; }
need swiftc "the Swift toolchain"
need kotlinc "apt-get install kotlin"
need java "apt-get install default-jdk-headless"
need tsc "apt-get install node-typescript"
need node "apt-get install nodejs"
CHECK=check-export
. Scripts/browser-prerequisites.sh

rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(realpath "$OUT")

# Each tuned over its swept parameter's default grid; seeds 1, 2, … for the random contacts.
CONFIGS=(
  deep-press
  hysteresis
  stable-press
  peek-pop
  ema/deep-press
  movmean/hysteresis
  one-euro/stable-press
  one-euro/peek-pop
)

# One configuration: tune, export, build and run the three cores. Prints what it ran; exits with
# the number of failed checks.
check_config() {
  local name=$1 seed=$2 failed=0
  local slug=${name//\//_}
  local dir="$OUT/$slug"
  "$TOUCHTRACE" tune samples/ --recognizer "$name" --quiet \
    --export-json "$OUT/tune/$slug.json" --output "$OUT/tune/$slug.md" || return 1
  "$TOUCHTRACE" export --configuration "$OUT/tune/$slug.json" --output "$dir" --quiet \
    --random "$CONTACTS" --seed "$seed" samples/ || return 1
  echo "== $name ($(settings "$OUT/tune/$slug.json" ""))"

  # Swift: the core and its check, standard library only.
  (cd "$dir/swift" && swiftc -O ForcePressCore.swift check/main.swift -o "$dir/check-swift") || failed=$((failed + 1))
  "$dir/check-swift" <"$dir/vectors.txt" || failed=$((failed + 1))

  # Kotlin: the core, its check and the Android adapter (against stubs of the Android API) in one
  # kotlinc -Werror run; the check runs on the JDK.
  Scripts/export-stubs/check-kotlin.sh "$dir" || failed=$((failed + 1))

  # TypeScript: tsc --strict compiles the core; the emitted JavaScript and tsc's output both run.
  tsc --strict --target es2020 --module es2020 --outDir "$dir/tsc" "$dir/typescript/force-press-core.ts" \
    || failed=$((failed + 1))
  node "$dir/typescript/conformance-check.mjs" "$dir/vectors.txt" "$dir/typescript/force-press-core.js" \
    || failed=$((failed + 1))
  node "$dir/typescript/conformance-check.mjs" "$dir/vectors.txt" "$dir/tsc/force-press-core.js" \
    || failed=$((failed + 1))
  return "$failed"
}

# A tuned configuration's parameters as `P=V` words, each after PREFIX (`--set ` or nothing).
settings() {
  python3 -c 'import json,sys; print(" ".join(f"{sys.argv[2]}{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in json.load(open(sys.argv[1]))["params"].items()))' "$1" "$2"
}

# Two configurations at a time (the compilers are mostly single-threaded); each one's output is
# printed whole, in order, once all are done.
mkdir -p "$OUT/tune"
failures=0
seed=1
for name in "${CONFIGS[@]}"; do
  slug=${name//\//_}
  (
    status=0
    check_config "$name" "$seed" >"$OUT/$slug.log" 2>&1 || status=$?
    echo "$status" >"$OUT/$slug.status"
  ) &
  seed=$((seed + 1))
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
done
wait
for name in "${CONFIGS[@]}"; do
  slug=${name//\//_}
  grep -v "^OpenJDK 64-Bit Server VM warning" "$OUT/$slug.log" || true
  status=$(cat "$OUT/$slug.status" 2>/dev/null || echo 1)
  [ "$status" -eq 0 ] || { echo "check-export: $name: $status failed check(s)" >&2; failures=$((failures + status)); }
done

echo "== the adapters"
dir="$OUT/stable-press"
# The Pointer Events binding type-checks with the DOM library.
tsc --strict --target es2020 --module es2020 --lib es2020,dom --outDir "$OUT/binding-tsc" \
  "$dir/typescript/pointer-binding.ts"
# The UIKit adapter compiles away without UIKit; with the core it must still build here.
(cd "$dir/swift" && swiftc -parse-as-library -emit-module -module-name Exported ForcePressCore.swift \
  ForcePressCoreGestureRecognizer.swift -o "$OUT/Exported.swiftmodule")

echo "== canaries: one comparison changed in each core must be caught"
canary="$OUT/canary"
cp -r "$OUT/stable-press" "$canary"
sed -i 's/n >= Self.pressThreshold {/n > Self.pressThreshold {/' "$canary/swift/ForcePressCore.swift"
grep -q "n > Self.pressThreshold {" "$canary/swift/ForcePressCore.swift"
(cd "$canary/swift" && swiftc -O ForcePressCore.swift check/main.swift -o "$canary/check-swift")
if "$canary/check-swift" <"$canary/vectors.txt" >"$canary/swift.log" 2>&1; then
  echo "check-export: the Swift canary passed: the check does not see a changed comparison" >&2
  failures=$((failures + 1))
else
  echo "swift canary caught: $(tail -n 1 "$canary/swift.log")"
fi
python3 - "$canary" <<'EOF'
import re, sys
root = sys.argv[1]
for path in (f"{root}/kotlin/ForcePressCore.kt", f"{root}/typescript/force-press-core.js"):
    text = open(path).read()
    changed, n = re.subn(r"n >= (\w+\.)?(PRESS_THRESHOLD|pressThreshold)\b", r"n > \1\2", text, count=1)
    if n != 1:
        sys.exit(f"check-export: no press comparison to change in {path}")
    open(path, "w").write(changed)
EOF
if Scripts/export-stubs/check-kotlin.sh "$canary" >"$canary/kotlin.log" 2>&1; then
  echo "check-export: the Kotlin canary passed" >&2
  failures=$((failures + 1))
else
  echo "kotlin canary caught: $(grep differences "$canary/kotlin.log" | tail -n 1)"
fi
if node "$canary/typescript/conformance-check.mjs" "$canary/vectors.txt" "$canary/typescript/force-press-core.js" \
  >"$canary/typescript.log" 2>&1; then
  echo "check-export: the TypeScript canary passed" >&2
  failures=$((failures + 1))
else
  echo "typescript canary caught: $(grep differences "$canary/typescript.log" | tail -n 1)"
fi

echo "== the Pointer Events binding in headless Chromium"
# The TypeScript toolchain and conformance already ran above: the browser part only.
# shellcheck disable=SC2046
python3 Scripts/check-export-web.py "$TOUCHTRACE" "$OUT/stable-press" stable-press --browser-only \
  $(settings "$OUT/tune/stable-press.json" "--set ") --screenshot "$OUT/web-stable-press.png" || failures=$((failures + 1))
# shellcheck disable=SC2046
python3 Scripts/check-export-web.py "$TOUCHTRACE" "$OUT/peek-pop" peek-pop --browser-only \
  $(settings "$OUT/tune/peek-pop.json" "--set ") || failures=$((failures + 1))

if [ "$failures" -ne 0 ]; then
  echo "check-export: $failures failure(s)" >&2
  exit 1
fi
echo "check-export: every core equals the replay in Swift, Kotlin and TypeScript; canaries caught"
