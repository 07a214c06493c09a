# Sourced by the bench scripts: moves to Benchmarks/ and checks what they need.
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# SwiftPM identifies a path dependency by its directory's name. This package (directory
# `Benchmarks`) depends on `..` and on `../Examples/CustomRecognizer` (which depends on `../..`): a
# clone whose directory is also called `benchmarks` or `customrecognizer` (any case) would have the
# same identity as one of those packages, and SwiftPM would stop on the conflict.
clone=$(basename "$(cd .. && pwd -P)")
case "$(printf '%s' "$clone" | tr '[:upper:]' '[:lower:]')" in
  benchmarks | customrecognizer)
    echo "bench: the repository directory is named '$clone', the same package identity as the nested" \
      "package Benchmarks/ or Examples/CustomRecognizer/ (SwiftPM names path dependencies after their" \
      "directory). Clone or bind-mount the repository under another name." >&2
    exit 1
    ;;
esac

if ! command -v python3 >/dev/null 2>&1; then
  echo "bench: python3 is required" >&2
  exit 1
fi
