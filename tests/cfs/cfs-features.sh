#!/bin/sh
# Set the sched_feat bits of the cfs-*.patch series, for running a test
# suite with all of them on, all off, or at their defaults.
#
#   cfs-features.sh on|off|default|show
F=/sys/kernel/debug/sched/features
BITS="WA_IDLE_PREV WA_SCHED_IDLE_PREV SIB_PULL SIB_KEEP_LAST SIS_SKIP_OVERLOADED SIB_IDLE_CAPACITY"
DEFAULT_ON="WA_IDLE_PREV"

[ -w "$F" ] || { echo "$0: $F not writable" >&2; exit 1; }
case "${1:-show}" in
on | off | default | show) ;;
*) echo "usage: $0 on|off|default|show" >&2; exit 2 ;;
esac
for b in $BITS; do
	case "$1" in
	on) v=$b ;;
	off) v=NO_$b ;;
	default) case " $DEFAULT_ON " in *" $b "*) v=$b ;; *) v=NO_$b ;; esac ;;
	*) v= ;;
	esac
	if [ -n "$v" ]; then
		echo "$v" >"$F" || { echo "$0: cannot write $v" >&2; exit 1; }
	fi
done
tr ' ' '\n' <"$F" | grep -E "^(NO_)?($(echo $BITS | tr ' ' '|'))$" | tr '\n' ' '
echo
