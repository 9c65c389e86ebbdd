#!/bin/sh
# Run the guest test suite: every executable t_* in DIR (and in the
# space-separated directories of $TEST_EXTRA_DIRS), each under timeout(1).
#
#   run-suite.sh DIR [pattern]
#
# pattern selects tests by name: a shell glob (t_*aff*) or, without glob
# characters, a substring (nice).  Environment:
#   TEST_TIMEOUT     seconds per test (default 120); a test still running
#                    then is killed and counts as failed
#   TEST_EXTRA_DIRS  more directories with t_* programs
#   VRQ_IN_GUEST=1   passed through: enables tests that may only run in the
#                    throwaway guest (CPU hotplug)
#
# Test exit codes: 0 pass, 77 skip, anything else fail.  Prints
# "PASS t_x (Ns)" / "FAIL t_x ..." / "SKIP t_x ..." per test with its output
# indented, then "N passed, N failed, N skipped".  Exits non-zero when a test
# failed or when no test ran (passed + failed == 0).

usage() {
	echo "usage: $0 DIR [pattern]" >&2
	exit 2
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
dir=$1
pattern=${2:-}
timeout_s=${TEST_TIMEOUT:-120}

case $pattern in
'') pattern='*' ;;
*[*?[]*) ;;
*) pattern="*$pattern*" ;;
esac

case $timeout_s in
'' | *[!0-9]*) echo "$0: TEST_TIMEOUT must be a number of seconds" >&2; exit 2 ;;
esac

for d in "$dir" $TEST_EXTRA_DIRS; do
	if [ ! -d "$d" ]; then
		echo "$0: no such directory: $d" >&2
		exit 2
	fi
done

out=$(mktemp "${TMPDIR:-/tmp}/run-suite.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# milliseconds since the epoch (GNU date), falling back to seconds
now_ms() {
	t=$(date +%s%3N 2>/dev/null)
	case $t in
	*N | '') echo $(( $(date +%s) * 1000 )) ;;
	*) echo "$t" ;;
	esac
}

passed=0
failed=0
skipped=0
failed_names=

for d in "$dir" $TEST_EXTRA_DIRS; do
	for t in "$d"/t_*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		name=${t##*/}
		case $name in
		*.*) continue ;; # t_foo.c, t_foo.o, logs
		esac
		# shellcheck disable=SC2254
		case $name in
		$pattern) ;;
		*) continue ;;
		esac

		start=$(now_ms)
		timeout -k 10 "$timeout_s" "$t" >"$out" 2>&1 </dev/null
		rc=$?
		end=$(now_ms)
		ms=$((end - start))
		secs="$((ms / 1000)).$(( (ms % 1000) / 100 ))s"

		case $rc in
		0)
			echo "PASS $name ($secs)"
			passed=$((passed + 1))
			;;
		77)
			echo "SKIP $name ($secs)"
			skipped=$((skipped + 1))
			;;
		124 | 137)
			echo "FAIL $name (timeout after ${timeout_s}s, exit $rc)"
			failed=$((failed + 1))
			failed_names="$failed_names $name"
			;;
		*)
			if [ "$rc" -gt 128 ]; then
				why="killed by signal $((rc - 128))"
			else
				why="exit $rc"
			fi
			echo "FAIL $name ($why, $secs)"
			failed=$((failed + 1))
			failed_names="$failed_names $name"
			;;
		esac
		sed 's/^/    /' "$out"
	done
done

[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$passed passed, $failed failed, $skipped skipped"
if [ $((passed + failed)) -eq 0 ]; then
	echo "$0: no test ran (dir $dir, pattern '${2:-}')" >&2
	exit 1
fi
[ "$failed" -eq 0 ]
