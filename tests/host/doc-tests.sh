# Sourced by run.sh: the user docs against the code they describe.
# sysctls from vrq.c's ctl_table: "kernel.NAME default min max".
code_sysctls() {
	awk '
	/^static int [a-z_0-9]+ = -?[0-9]+;/ { v[$3] = $5; sub(";", "", v[$3]) }
	/^static int [a-z_0-9]+;/ { n = $3; sub(";", "", n); v[n] = 0 }
	/ctl_table vrq_sysctls\[\]/ { t = 1 }
	t && /^};/ { t = 0 }
	function val(s) {
		sub(/,$/, "", s)
		if (s == "SYSCTL_ZERO") return 0
		if (s == "SYSCTL_ONE") return 1
		if (s == "SYSCTL_TWO") return 2
		if (s == "SYSCTL_ONE_HUNDRED") return 100
		sub("&", "", s)
		return (s in v) ? v[s] : "?" s
	}
	t && $1 == ".procname" { gsub(/[",]/, "", $3); name = $3 }
	t && $1 == ".data" { def = val($3) }
	t && $1 == ".extra1" { lo = val($3) }
	t && $1 == ".extra2" { print "kernel." name, def, lo, val($3) }
	' "$REPO/kernel-sched/vrq.c" | sort
}
# sysctls from the table in tuning.md: | `kernel.NAME` | default | min..max (unit) | ...
doc_sysctls() {
	awk -F'|' '$2 ~ /`kernel\./ {
		gsub(/[` ]/, "", $2); gsub(/ /, "", $3)
		split($4, r, " "); split(r[1], mm, /\.\./)
		print $2, $3, mm[1], mm[2]
	}' "$REPO/docs/tuning.md" | sort
}
export -f code_sysctls doc_sysctls
check "vrq.c has sysctls to compare" 0 bash -c '[ "$(code_sysctls | wc -l)" -ge 5 ]'
check "tuning.md lists every sysctl of vrq.c with its default and range" 0 \
	bash -c 'diff -u <(doc_sysctls) <(code_sysctls)'
# Kconfig: every option the vrq-* patches make depend on !SCHED_VRQ is named
# in install.md, and the menuconfig path uses Kconfig.vrq's prompts.
off=$(cat "$REPO"/patches/vrq-*.patch | awk '/^(@@.*@@)? config [A-Z]/{c=$NF} /^\+.*depends on !SCHED_VRQ/{print c}' | sort -u)
check "the vrq-* patches turn options off" 0 test -n "$off"
for c in $off; do
	check "install.md names CONFIG_$c as turned off" 0 grep -q "CONFIG_$c\b" "$REPO/docs/install.md"
done
prompt=$(sed -n 's/^\tprompt "\(.*\)"/\1/p' "$REPO/Kconfig.vrq")
vrq=$(awk '/^config SCHED_VRQ/{f=1} f && /^\tbool "/{sub(/^\tbool "/, ""); sub(/"$/, ""); print; exit}' "$REPO/Kconfig.vrq")
check "install.md gives the menuconfig path General setup -> $prompt -> $vrq" 0 \
	grep -qF "General setup → $prompt → $vrq" "$REPO/docs/install.md"
check "the user patch holds no CFS comparison patch" 1 \
	grep -qE '^\+\+\+ b/kernel/sched/fair\.c|cfs-[0-9]' "$REPO/patches/vrq-6.12-all-in-one.patch"
for p in $(sed -nE 's/.*(__setup|early_param)\("([a-z_]+).*/\2/p' "$REPO/kernel-sched/vrq.c"); do
	check "tuning.md names the boot parameter $p" 0 grep -q "\`$p=" "$REPO/docs/tuning.md"
done
hdr=$(sed -n 's/.*seq_puts(m, "\(# cpu [^\\]*\)\\n");/\1/p' "$REPO/kernel-sched/vrq.c")
check "tuning.md shows the vrq_stats header of vrq.c" 0 grep -qF "    $hdr" "$REPO/docs/tuning.md"
for f in $(grep -o '"vrq\.[a-z_]*"' "$REPO/kernel-sched/vrq.c" | tr -d '"'); do
	check "tuning.md names the /proc/PID/sched field $f" 0 grep -q "\`$f\`" "$REPO/docs/tuning.md"
done
# The committed user patch carries the scheduler as it is now (make patch
# refreshes it): its new files equal kernel-sched/ and Kconfig.vrq.
patch_file() { # path in the kernel tree: the + lines of that new file
	awk -v f="b/$1" '/^\+\+\+ /{on = ($2 == f)} on && /^\+([^+]|$)/{print substr($0, 2)}' \
		"$REPO/patches/vrq-6.12-all-in-one.patch"
}
export -f patch_file
for f in "$REPO"/kernel-sched/*; do
	check "the all-in-one patch has kernel-sched/$(basename "$f") as it is (make patch)" 0 \
		bash -c "diff -q <(patch_file kernel/sched/$(basename "$f")) '$f'"
done
check "the all-in-one patch has Kconfig.vrq as it is (make patch)" 0 \
	bash -c "diff -q <(patch_file kernel/Kconfig.vrq) '$REPO/Kconfig.vrq'"
