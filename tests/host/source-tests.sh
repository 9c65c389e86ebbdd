# Sourced by run.sh: source.sh on a toy "6.12" tree.
toy=$(mktemp -d)
mkdir -p "$toy/linux/kernel/sched" "$toy/repo/patches" "$toy/repo/kernel-sched"
printf 'VERSION = 6\nPATCHLEVEL = 12\n' >"$toy/linux/Makefile"
printf 'one\ntwo\nthree\n' >"$toy/linux/kernel/sched/core.c"
printf 'a\nb\n' >"$toy/linux/kernel/sched/rt.c"
echo '/* vrq */' >"$toy/repo/kernel-sched/vrq.c"
echo 'config SCHED_VRQ' >"$toy/repo/Kconfig.vrq"
mkpatch() { # name file old new
	mkdir -p "$toy/p/a" "$toy/p/b"
	printf "$3" >"$toy/p/a/f" && printf "$4" >"$toy/p/b/f"
	{ echo "Subject: $1"; echo; echo "---"; diff -u --label "a/$2" --label "b/$2" "$toy/p/a/f" "$toy/p/b/f"; } >"$toy/repo/patches/$1"
}
mkpatch good1.patch kernel/sched/core.c 'one\ntwo\nthree\n' 'one\nTWO\nthree\n'
mkpatch good2.patch kernel/sched/rt.c 'a\nb\n' 'a\nB\n'
mkpatch bad.patch kernel/sched/rt.c 'x\ny\n' 'x\nY\n'
src() { REPO=$toy/repo PATCHES=$toy/repo/patches KSRC=$toy/linux "$REPO/scripts/source.sh"; }
tree_sum() { (cd "$toy/linux" && find . -path ./.vrq -prune -o -type f -print0 | sort -z | xargs -0 md5sum | md5sum); }
export toy REPO
export -f src tree_sum

printf 'good1.patch\n' >"$toy/repo/patches/series"
check "source applies the series and installs kernel-sched/" 0 \
	bash -c "src && grep -qx TWO $toy/linux/kernel/sched/core.c && test -f $toy/linux/kernel/sched/vrq.c && test -f $toy/linux/kernel/Kconfig.vrq"
before=$(tree_sum)
check "source is idempotent" 0 bash -c "src && [ \"\$(tree_sum)\" = '$before' ]"
printf 'good1.patch\ngood2.patch\nbad.patch\n' >"$toy/repo/patches/series"
check "a patch that does not apply fails" 1 bash -c "src"
check "the failure names the patch" 0 grep -q 'patch bad.patch does not apply' "$OUT"
check "the tree is left as it was" 0 bash -c "[ \"\$(tree_sum)\" = '$before' ]"
printf 'good2.patch\n' >"$toy/repo/patches/series"
check "a changed series reverses old patches and applies new" 0 \
	bash -c "src && grep -qx two $toy/linux/kernel/sched/core.c && grep -qx B $toy/linux/kernel/sched/rt.c"
rm -f "$toy/repo/kernel-sched/vrq.c"
check "a file removed from kernel-sched/ leaves the tree" 0 \
	bash -c "src && test ! -e $toy/linux/kernel/sched/vrq.c"
check "KSRC that is not a 6.12 tree is refused" 1 \
	env KSRC=/tmp PATCHES=$toy/repo/patches "$REPO/scripts/source.sh"
rm -rf "$toy"
