#!/usr/bin/env bash
# Installs touchtrace under a prefix: the executable, its man page (swift-argument-parser's
# generate-manual plugin) and completions for bash, zsh and fish (the executable's own
# --generate-completion-script). Called by `make install` (PREFIX, default /usr/local; DESTDIR
# for staging). Usage: Scripts/install.sh ROOT EXECUTABLE MANPAGE
set -euo pipefail
root="$1" executable="$2" manual="$3"
for file in "$executable" "$manual"; do
  [ -s "$file" ] || { echo "install: error: $file is missing or empty" >&2; exit 66; }
done
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
# Every file is made first, so a failing step installs nothing.
for shell in bash zsh fish; do
  "$executable" --generate-completion-script "$shell" > "$staging/$shell"
  [ -s "$staging/$shell" ] || { echo "install: error: no $shell completion script" >&2; exit 1; }
done
install -d "$root/bin" "$root/share/man/man1" "$root/share/bash-completion/completions" \
  "$root/share/zsh/site-functions" "$root/share/fish/vendor_completions.d"
install -m 755 "$executable" "$root/bin/touchtrace"
install -m 644 "$manual" "$root/share/man/man1/touchtrace.1"
install -m 644 "$staging/bash" "$root/share/bash-completion/completions/touchtrace"
install -m 644 "$staging/zsh" "$root/share/zsh/site-functions/_touchtrace"
install -m 644 "$staging/fish" "$root/share/fish/vendor_completions.d/touchtrace.fish"
echo "installed touchtrace in $root: bin/touchtrace, share/man/man1/touchtrace.1, bash, zsh and fish completions"
