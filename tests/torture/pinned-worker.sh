#!/bin/bash
# One pinned worker of the hotplug torture (started by hotplug.sh under
# taskset -c CPU): LOOPS rounds of busy work; after each round it checks
# that the CPU it runs on is in its allowed list. It appends to FILE
# "start ID CPU" when it begins and, when done,
#   "done ID CPU allowed=LIST bad=N"
# where LIST is its final affinity and N the rounds it ran outside it.
# usage: pinned-worker.sh ID CPU LOOPS FILE
set -euo pipefail

id=$1 cpu=$2 loops=$3 file=$4
echo "start $id $cpu" >>"$file"

# in_list N LIST: N is in a cpulist such as "0-2,5".
in_list() {
	local r
	for r in ${2//,/ }; do
		if [[ $r == *-* ]]; then
			[ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0
		else
			[ "$1" = "$r" ] && return 0
		fi
	done
	return 1
}

# read_allowed: ALLOWED = this task's Cpus_allowed_list (no fork, so that
# it is this task's and not a subshell's).
read_allowed() {
	local k v
	while read -r k v; do
		[ "$k" = Cpus_allowed_list: ] && { ALLOWED=$v; return; }
	done </proc/$BASHPID/status
}

bad=0
for ((i = 0; i < loops; i++)); do
	for ((j = 0; j < 3000; j++)); do :; done
	read -r -a st </proc/$BASHPID/stat
	# field 39 (processor); comm is "bash", without spaces
	read_allowed
	in_list "${st[38]}" "$ALLOWED" || bad=$((bad + 1))
done
read_allowed
echo "done $id $cpu allowed=$ALLOWED bad=$bad" >>"$file"
