# Host tier: adding a table takes three places, as targets.h says:
# bpf/recipes/NAME.bpf.c, user/trace/recipe_NAME.c and its line in the
# registry (RECIPES in user/trace/targets.c). In a scratch copy of the
# tree (the built objects copied too, so only the new pieces compile), a
# recipe "dummy" is added in exactly those three places, a copy of the
# mount recipe; the build must take it and pftrace list must show it.
# A fourth place (a list in the Makefile, a switch) fails the build or
# leaves it out of the list. And -f takes the recipe's name.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree

# the tree as it is (tracked and new files), and what it built, times kept
mkdir -p "$tree/.output"
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null)
else
	(cd "$top" && tar -cf - --exclude=./.output --exclude=./pftrace .)
fi | tar -xf - -C "$tree"
(cd "$top/.output" && tar -cf - --exclude='./asan' --exclude='./deb' --exclude='./fuzz' \
	--exclude='./lab' --exclude='./unit' --exclude='./bench' .) | tar -xf - -C "$tree/.output"
cp -p "$top/pftrace" "$tree/pftrace"

# the BPF side's own names renamed (its globals), the kernel's kept (struct mount)
sed 's/mount_/dummy_/g' "$tree/bpf/recipes/mount.bpf.c" >"$tree/bpf/recipes/dummy.bpf.c"
sed 's/mount/dummy/g' "$tree/user/trace/recipe_mount.c" >"$tree/user/trace/recipe_dummy.c"
sed -i 's/^\(\tX(avc)\)/\tX(dummy)\t\t\\\n\1/' "$tree/user/trace/targets.c"
check "the registry took the dummy's line" grep -q '^	X(dummy)' "$tree/user/trace/targets.c"

make -s -C "$tree" -j2 pftrace >"$tmp/build" 2>&1
rc=$?
check "the tree builds with a recipe added in three places" [ $rc -eq 0 ]
[ $rc -eq 0 ] || diag "$tmp/build"
check "the recipe's two objects were built from bpf/recipes/dummy.bpf.c" \
	[ -s "$tree/.output/dummy.bpf.o" -a -s "$tree/.output/dummy.direct.bpf.o" ]
"$tree/pftrace" list --format json >"$tmp/list.json" 2>"$tmp/list.err"
check "pftrace list names the dummy recipe, tracing __lookup_mnt" \
	jq_true "$tmp/list.json" '[.recipes[] | select(.recipe == "dummy" and .traces == "__lookup_mnt")] | length == 1'
check "and the other recipes still" \
	jq_true "$tmp/list.json" '[.recipes[].recipe] | contains(["avc", "dcache", "inode", "mount", "tcp"])'

# -f takes a recipe's name as pftrace list prints it: the refusals below
# come from the recipe selected (before, each said "no recipe knows")
pftrace=$top/pftrace
refuses "-f avc: the AVC recipe, refused here for SELinux" "^pftrace: avc_lookup: SELinux is not active" \
	"$pftrace" -f avc -d 1
refuses "-f dcache-ref: __d_lookup, planned (and refused here)" "^pftrace: __d_lookup: cannot attach" \
	"$pftrace" -f dcache-ref --dry-run
refuses "-f mount and -f __lookup_mnt: the same recipe twice" \
	"__lookup_mnt: traced already (as __lookup_mnt, by -f mount)" "$pftrace" -f mount -f __lookup_mnt -d 1
summary host
