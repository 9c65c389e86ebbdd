#!/bin/bash
# Boot a kernel under QEMU, run a command in the guest, collect results.
#
# usage: boot-guest.sh --kernel BZIMAGE --out DIR [--cpus N] [--mem MB]
#                      [--preempt none|voluntary|full] [--timeout SECS]
#                      [--append 'extra cmdline'] [--disk IMG] -- 'command'
#
# --disk IMG boots a whole system instead: IMG (raw ext4) is the root on
# /dev/vda and its own init (systemd) runs; the image runs the checks
# itself (scripts/desktop-image.sh) and writes DIR/exit-code through the
# results share, so there is no command.
# The guest's root is the host's / over virtio-9p (read-only), /tmp is
# tmpfs and DIR is mounted read-write at /tmp/results ($RESULTS). The serial
# log goes to DIR/serial.log and the command's output to DIR/output.txt.
# KVM is probed once with a short timed boot (on these machines /dev/kvm
# exists but guests hang) and TCG is used when it fails; ACCEL=kvm|tcg skips
# the probe. TCG_THREADS=single runs every vCPU on one host thread
# (default multi: a thread a vCPU). ICOUNT=SHIFT (0-10) runs TCG in
# icount mode: one host thread, and every guest instruction takes 2^SHIFT
# ns of guest time, so that a busy guest's clock counts its own work, not
# the host's speed (an idle guest's clock still runs with the host's); see
# docs/benchmarks.md, "The icount instrument". Exit status: the command's,
# or 1 on a timeout, a missing CPU or a kernel splat (WARNING, BUG, lockdep, RCU
# stall, hung task, lockup).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel= out= cpus=2 mem=2048 preempt=full timeout=600 append= cmd= disk=
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--preempt) preempt=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--disk) disk=$2; shift 2 ;;
	--) shift; cmd="$*"; break ;;
	*) die "boot-guest.sh: unknown argument '$1'" ;;
	esac
done
[ -n "$kernel" ] || die "boot-guest.sh: --kernel is required"
[ -f "$kernel" ] || die "kernel image $kernel not found: run 'make kernel'"
[ -n "$out" ] || die "boot-guest.sh: --out is required"
[ -n "$cmd" ] || cmd="true"
[ -z "$disk" ] || [ -f "$disk" ] || die "disk image $disk not found: run scripts/desktop-image.sh"
case "$cpus" in '' | *[!0-9]* | 0) die "CPUS must be a positive number, not '$cpus'" ;; esac
[ "$cpus" -le 64 ] || die "CPUS=$cpus: the guest kernel supports at most 64"
case "$preempt" in none | voluntary | full) ;;
*) die "PREEMPT must be none, voluntary or full, not '$preempt'" ;; esac
case "$timeout" in '' | *[!0-9]*) die "timeout must be seconds, not '$timeout'" ;; esac
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/exit-code" "$out/output.txt" "$out/serial.log"
printf '%s\n' "$cmd" >"$out/cmd.sh"

base_append="console=ttyS0 root=host0 rootfstype=9p"
# The root is read-only and does not change during a boot: cache=loose
# makes exec of large programs (gcc, mpv) fast; cache=none costs minutes.
base_append+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro"
base_append+=" init=$REPO/scripts/guest-init.sh panic=-1 oops=panic printk.time=1"
disk_append="console=ttyS0 root=/dev/vda rw panic=-1 oops=panic printk.time=1"
# The repository is also shared on its own and mounted at its own path, so
# it stays visible when it lives under /tmp (which the guest mounts tmpfs on).
base_append+=" VRQ_REPO=$REPO"

# qemu_run ACCEL TIMEOUT DIR EXTRA_APPEND: boot with DIR (holding cmd.sh) as
# the guest's results directory; the serial log goes to DIR/serial.log.
qemu_run() {
	local rc=0 pid d=() a=$base_append
	# the disk is for the boot itself, not for the KVM probe
	if [ -n "$disk" ] && [ "$3" = "$out" ]; then
		d=(-drive "file=$disk,if=virtio,format=raw,cache=unsafe")
		a=$disk_append
	fi
	timeout -k 5 "$2" qemu-system-x86_64 -accel "$1" "${icount_args[@]}" \
		-m "$mem" -smp "$cpus" -name vrq-guest,debug-threads=on \
		-nographic -no-reboot -nodefaults -serial stdio -display none \
		-kernel "$kernel" -append "$a $4" "${d[@]}" \
		-virtfs local,path=/,mount_tag=host0,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$3",mount_tag=results,security_model=none,multidevs=remap \
		-virtfs local,path="$REPO",mount_tag=repo,security_model=none,readonly=on,multidevs=remap \
		</dev/null >"$3/serial.log" 2>&1 &
	pid=$!
	[ "${VCPU_PIN:-0}" = 0 ] || pin_vcpus "$pid" "$3/vcpu-pin"
	wait "$pid" || rc=$?
	return $rc
}

# pin_vcpus TIMEOUT_PID LOG: pin QEMU's vCPU thread N ("CPU N/TCG" or
# "CPU N/KVM") to host CPU N modulo the host's CPUs, so that the host
# scheduler does not stack two vCPUs on one core for part of a run
# (VCPU_PIN=1). Waits up to 20 s for the threads; LOG gets what was pinned.
pin_vcpus() {
	local qpid= t comm n i
	for i in $(seq 200); do
		qpid=$(pgrep -P "$1" -x qemu-system-x86 || true)
		[ -z "$qpid" ] || [ "$(grep -l '^CPU [0-9]*/' /proc/"$qpid"/task/*/comm 2>/dev/null | wc -l)" -lt "$cpus" ] || break
		sleep 0.1
	done
	[ -n "$qpid" ] || { echo "no qemu process found" >"$2"; return 0; }
	: >"$2"
	for t in /proc/"$qpid"/task/*; do
		comm=$(cat "$t/comm" 2>/dev/null) || continue
		case "$comm" in "CPU "*/*) ;; *) continue ;; esac
		n=${comm#CPU }
		n=${n%%/*}
		taskset -p -c $((n % $(nproc))) "${t##*/}" >/dev/null 2>&1 &&
			echo "$comm -> host CPU $((n % $(nproc)))" >>"$2"
	done
}

icount=${ICOUNT:-}
check_icount "$icount"
icount_args=()
accel=${ACCEL:-}
threads=${TCG_THREADS:-multi}
if [ -n "$icount" ]; then
	[ "${accel:-tcg}" = tcg ] || die "ICOUNT needs TCG, not ACCEL=$accel"
	threads=${TCG_THREADS:-single}
	[ "$threads" = single ] || die "ICOUNT runs every vCPU on one host thread: TCG_THREADS=$threads cannot be used with it"
	accel=tcg
	icount_args=(-icount "shift=$icount")
fi
# Probe KVM once per build directory; the answer is cached in build/accel.
if [ -z "$accel" ]; then
	cache=$BUILD/accel
	if [ -f "$cache" ]; then
		accel=$(cat "$cache")
	elif [ -w /dev/kvm ]; then
		note "probing KVM (20 s timed boot)"
		probe=$(mktemp -d)
		printf 'echo KVM-PROBE-OK\n' >"$probe/cmd.sh"
		if qemu_run kvm 20 "$probe" "" && grep -q KVM-PROBE-OK "$probe/serial.log"; then
			accel=kvm
		else
			accel=tcg
		fi
		rm -rf "$probe"
		mkdir -p "$BUILD" && echo "$accel" >"$cache"
	else
		accel=tcg
	fi
fi
case "$accel" in
kvm) qaccel=kvm ;;
tcg)
	case "$threads" in single | multi) ;;
	*) die "TCG_THREADS must be single or multi, not '$threads'" ;; esac
	qaccel=tcg,thread=$threads
	;;
*) die "ACCEL must be kvm or tcg, not '$accel'" ;;
esac
echo "$accel${icount:+-icount$icount}" >"$out/accel"
note "booting $kernel accel=$qaccel${icount:+ icount=$icount} cpus=$cpus preempt=$preempt timeout=${timeout}s"

start=$(date +%s)
rc=0
qemu_run "$qaccel" "$timeout" "$out" \
	"preempt=$preempt VRQ_EXPECT_CPUS=$cpus $append" || rc=$?
elapsed=$(($(date +%s) - start))
echo "$elapsed" >"$out/elapsed"

fail=0
if [ $rc = 124 ] || [ $rc = 137 ]; then
	echo "error: guest timed out after ${timeout}s; last lines of the log:" >&2
	tail -30 "$out/serial.log" >&2
	fail=1
fi
"$REPO/scripts/scan-log.sh" "$out/serial.log" || fail=1
if [ ! -f "$out/exit-code" ]; then
	[ $fail = 1 ] || {
		echo "error: guest ended without a result; last lines of the log:" >&2
		tail -30 "$out/serial.log" >&2
	}
	fail=1
	code=1
else
	code=$(cat "$out/exit-code")
	[ "$code" = 98 ] && echo "error: guest did not bring up $cpus CPUs" >&2
fi
note "guest finished in ${elapsed}s, command exit code ${code}, log $out/serial.log"
[ $fail = 0 ] || exit 1
exit "$code"
