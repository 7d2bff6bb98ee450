#!/usr/bin/env bash
# Lint: every C source and header must match .clang-format, and app/'s rooms
# include each other in one direction only (scripts/check-rooms.py).
#   scripts/lint.sh SRCDIR          check (exit 1 and list what is wrong)
#   scripts/lint.sh SRCDIR --fix    rewrite them in place
set -euo pipefail
src=${1:-.}
cd "$src"
fmt=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$fmt" ]; then
	echo "lint: clang-format not found (apt-get install clang-format)" >&2
	exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find app lib drivers tests -name '*.[ch]')
if [ "${2:-}" = "--fix" ]; then
	"$fmt" -i "${files[@]}"
	exit 0
fi
bad=0
/usr/bin/python3 scripts/check-rooms.py . >/dev/null || {
	/usr/bin/python3 scripts/check-rooms.py . >&2
	bad=1
}
for f in "${files[@]}"; do
	if ! "$fmt" "$f" | cmp -s - "$f"; then
		echo "lint: $f is not formatted (run: ninja -C build format)"
		bad=1
	fi
done
exit $bad
