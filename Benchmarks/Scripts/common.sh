# Sourced by the bench scripts: moves to Benchmarks/ and checks what they need.
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# SwiftPM identifies a path dependency by its directory's name. This package (directory
# `Benchmarks`) depends on `..`: a clone whose directory is also called `benchmarks` (any case)
# would have the same identity as this package, and SwiftPM would not find the toolkit's products.
clone=$(basename "$(cd .. && pwd -P)")
if [ "$(printf '%s' "$clone" | tr '[:upper:]' '[:lower:]')" = "benchmarks" ]; then
  echo "bench: the repository directory is named '$clone', the same package identity as the nested" \
    "package Benchmarks/ (SwiftPM names path dependencies after their directory). Clone or" \
    "bind-mount the repository under another name." >&2
  exit 1
fi

if ! command -v python3 >/dev/null 2>&1; then
  echo "bench: python3 is required" >&2
  exit 1
fi
