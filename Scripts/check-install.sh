#!/usr/bin/env bash
# Checks `make install` into a temporary prefix: the installed executable runs, the man page
# renders and names every subcommand, and bash completes subcommands and options from the
# installed completion script. Run from the repository root (CI runs it).
set -euo pipefail
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
make install PREFIX="$prefix"
"$prefix/bin/touchtrace" --version
page="$prefix/share/man/man1/touchtrace.1"
for command in $("$prefix/bin/touchtrace" --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
  grep -q "$command" "$page" || { echo "check-install: the man page does not mention $command" >&2; exit 1; }
done
if command -v groff >/dev/null 2>&1; then
  # The page is mdoc; it renders with the Examples of the subcommands' descriptions.
  groff -mandoc -Tutf8 "$page" 2>/dev/null | grep -q "touchtrace sweep samples/" \
    || { echo "check-install: the man page does not render with its examples" >&2; exit 1; }
fi
bash -c '
  source "$1"
  # Bash calls the completion function with the command, the word being completed and the one before.
  completes() {
    local line="$1" expected="$2"
    read -ra COMP_WORDS <<< "$line"
    [[ "$line" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="$line"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
    _touchtrace touchtrace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    [[ " ${COMPREPLY[*]} " == *" $expected "* ]] || { echo "bash completion of \"$line\": ${COMPREPLY[*]}" >&2; exit 1; }
  }
  completes "touchtrace sw" sweep
  completes "touchtrace sweep --pri" --print-config
  completes "touchtrace sweep --format " html
  completes "touchtrace inspect --format " md
' _ "$prefix/share/bash-completion/completions/touchtrace"
for file in "$prefix/share/zsh/site-functions/_touchtrace" "$prefix/share/fish/vendor_completions.d/touchtrace.fish"; do
  [ -s "$file" ] || { echo "check-install: $file is empty" >&2; exit 1; }
done
echo "check-install: executable, man page and completions installed and working"
