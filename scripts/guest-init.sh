#!/bin/sh
# PID 1 of the QEMU guest. The root is the host's / (read-only 9p); this
# mounts the pseudo file systems and tmpfs, mounts the host results
# directory at /tmp/results, runs /tmp/results/cmd.sh, records its exit code
# and output there, and resets the machine (QEMU runs with -no-reboot, so a
# reset ends it).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb VRQ_IN_GUEST=1
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
mount -t tmpfs run /run
mount -t debugfs debugfs /sys/kernel/debug
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
# The repository at its host path (it may be under /tmp, hidden above).
if [ -n "$VRQ_REPO" ]; then
	mkdir -p "$VRQ_REPO"
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=loose,ro repo "$VRQ_REPO"
fi
mkdir -p /tmp/results
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /tmp/results
export RESULTS=/tmp/results
hostname vrq-guest 2>/dev/null
echo "guest-init: $(nproc) CPUs online, kernel $(uname -r), $(cat /proc/cmdline)"
if [ -n "$VRQ_EXPECT_CPUS" ] && [ "$(nproc)" != "$VRQ_EXPECT_CPUS" ]; then
	echo "guest-init: ERROR: asked for $VRQ_EXPECT_CPUS CPUs, guest has $(nproc)"
	echo 98 >/tmp/results/exit-code
else
	cd /tmp
	/bin/bash /tmp/results/cmd.sh </dev/null >/tmp/cmd.out 2>&1 &
	pid=$!
	tail -f /tmp/cmd.out --pid=$pid 2>/dev/null
	wait $pid
	echo $? >/tmp/results/exit-code
	cp /tmp/cmd.out /tmp/results/output.txt
fi
sync
echo "guest-init: done, exit code $(cat /tmp/results/exit-code)"
/bin/busybox reboot -f
