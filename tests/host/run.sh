#!/bin/bash
# Host-side unit tests of the harness: the serial-log scanner against
# recorded logs, patch-series handling in source.sh on a toy tree,
# rejection of bad make variables, and the user docs against the code
# (sysctls, Kconfig). Prints "N passed, N failed".
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
pass=0 fail=0
# The output of the last check, for checks on its message.
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT

check() { # name expected-exit command...
	local name=$1 want=$2 got=0
	shift 2
	"$@" >"$OUT.new" 2>&1 || got=$?
	mv "$OUT.new" "$OUT"
	if { [ "$want" = 0 ] && [ $got = 0 ]; } || { [ "$want" != 0 ] && [ $got != 0 ]; }; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name (exit $got, wanted $([ "$want" = 0 ] && echo 0 || echo non-zero))"
		sed 's/^/    /' "$OUT" | tail -15
		fail=$((fail + 1))
	fi
}

# The scanner: each recorded log under logs/ says in its name what to expect.
for log in "$HERE"/logs/*.log; do
	case "$(basename "$log")" in
	clean-*) check "scan-log passes $(basename "$log")" 0 "$REPO/scripts/scan-log.sh" "$log" ;;
	splat-*) check "scan-log fails $(basename "$log")" 1 "$REPO/scripts/scan-log.sh" "$log" ;;
	esac
done

. "$HERE/source-tests.sh"
. "$HERE/make-tests.sh"
. "$HERE/doc-tests.sh"
. "$HERE/stats-tests.sh"
. "$HERE/analysis-tests.sh"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
