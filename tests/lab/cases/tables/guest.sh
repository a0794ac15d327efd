# Lab case "tables", in the guest: the dcache, inode, mount and TCP
# established recipes, several targets in one session, each checked
# against what the kernel itself says (boot-time table sizes, InSegs,
# dentry-state, mountinfo, sysfs entries).
. /lab/lib.sh

ip link set lo up
case_ list pftrace list --format json
dmesg | grep 'hash table entries' >/tmp/tables.dmesg
echo "=== VALUE btf_bytes $(wc -c </sys/kernel/btf/vmlinux)"
emit dmesg /tmp/tables.dmesg

# all four tables (and the dcache's ref walk) in one session
case_ all pftrace -f __d_lookup_rcu -f __d_lookup -f find_inode_fast -f __lookup_mnt \
	-f __inet_lookup_established -o /tmp/all.json -- sh /lab/case/load.sh
emit all.json /tmp/all.json

# mount: a known number of crossings. tables-load.sh built the tower.
# Every mount point on the way to the leaf is crossed once per stat: the
# tower's mounts and /tmp itself, as /proc/self/mountinfo lists them.
leaf=$(find /tmp/tower -name leaf)
echo "=== VALUE mount_crossings $(awk '$5 == "/tmp" || $5 ~ "^/tmp/tower/" { n++ } END { print n }' /proc/self/mountinfo)"
case_ mount pftrace -f __lookup_mnt --format json -- path-stat "$leaf" 2000

# dcache: misses on a tree that exists, against nr_dentry / slots
echo "=== VALUE nr_dentry $(awk '{ print $1 }' /proc/sys/fs/dentry-state)"
case_ dcache pftrace -f __d_lookup_rcu --format json -- \
	sh -c 'tree-walk -d 2 -w 120 -r 1 -m 20000 /tmp/tree >/tmp/tree.out'
emit tree.out /tmp/tree.out
echo "=== VALUE nr_dentry_after $(awk '{ print $1 }' /proc/sys/fs/dentry-state)"

# dcache, a parent with DCACHE_OP_COMPARE: a casefolded tmpfs directory
# (6.13+). The name looked up is the file's own, uppercase and in another
# Unicode normalization: the same hash, another length. The kernel finds
# it; a walk that matched on hash and length alone would not. From inside
# the directory, so that each stat looks up that one name and no other.
if mkdir -p /tmp/cf && mount -t tmpfs -o casefold tmpfs /tmp/cf 2>/dev/null; then
	mkdir /tmp/cf/d && casefold-dir /tmp/cf/d && touch "/tmp/cf/d/$(printf 'caf\303\251')" &&
		echo "=== VALUE casefold 1"
	cd /tmp/cf/d
	case_ casefold pftrace -f __d_lookup_rcu --format json -- path-stat "$(printf 'CAFE\314\201')" 2000
	cd /
fi

# the kprobe path of every recipe
case_ kprobe pftrace -C attach=kprobe -f __d_lookup_rcu -f __d_lookup -f find_inode_fast \
	-f __lookup_mnt -f __inet_lookup_established --format json -- sh -c \
	'tcp-load -c 4 -n 200 >/dev/null; echo 2 >/proc/sys/vm/drop_caches
	 find /sys -maxdepth 4 >/dev/null; path-stat /tmp/tree/d1/f1 500'

# refusals: a symbol the recipe needs missing from kallsyms; a function
# missing from the BTF; one bad -f among good ones fails the start
grep -v ' d_hash_shift$' /proc/kallsyms >/tmp/kallsyms.doctored
PFTRACE_KALLSYMS=/tmp/kallsyms.doctored case_ no_symbol pftrace -f __d_lookup_rcu -d 1
case_ one_bad pftrace -f __lookup_mnt -f no_such_lookup -d 1
bpf-objects >/tmp/one_bad.after
emit one_bad.after /tmp/one_bad.after

# Snapshots of the four other tables in one command, each walked whole;
# whatif's identity check on each
tcp-load -c 4 -n 50 >/dev/null
case_ snapshot_tables pftrace snapshot -f __d_lookup_rcu -f __d_lookup -f find_inode_fast \
	-f __lookup_mnt -f __inet_lookup_established -o /tmp/snapshot_tables.json
emit snapshot_tables.json /tmp/snapshot_tables.json
case_ whatif_tables pftrace whatif /tmp/snapshot_tables.json --format json
