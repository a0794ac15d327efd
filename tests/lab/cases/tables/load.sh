# Workload of the "tables" case, run by pftrace itself (-- sh ...)
# so that every lookup it causes is inside the trace. It prints the
# kernel's own counters around each part as "key value" lines.
set -e

# TCP: InSegs counts every segment IPv4 TCP received; each one is looked
# up in the established hash (early demux, or tcp_v4_rcv).
insegs() { awk '$1 == "Tcp:" && $2 ~ /^[0-9]/ { print $11 }' /proc/net/snmp; }
echo "tcp_insegs_before $(insegs)"
tcp-load -c 32 -n 3000 >/dev/null
echo "tcp_insegs_after $(insegs)"

# mounts: a tower of tmpfs mounts, each crossed by every walk below
. /lab/tower.sh
depth=12
mount_tower $depth
echo "mount_depth $depth"
echo "mount_tower_mounts $(grep -c ' /tmp/tower/' /proc/self/mountinfo)"
walks=300
walk_tower $walks
echo "mount_walks $walks"

# dcache: many dentries, then lookups of names that do not exist
echo "dentry_state_before $(cat /proc/sys/fs/dentry-state)"
tree-walk -d 2 -w 120 -r 1 -m 20000 /tmp/tree | sed 's/^/tree_/'
echo "dentry_state_after $(cat /proc/sys/fs/dentry-state)"

# inodes: kernfs looks its inodes up with iget_locked(), which calls
# find_inode_fast() twice for an inode it must create: once before
# allocating it, once under inode_hash_lock before inserting it. A fresh
# sysfs superblock (a new network namespace gets its own) has nothing
# cached, so mounting and walking it costs exactly two lookups per entry,
# all misses. Its inodes also land among the cached ones of /sys, which
# matters: hash() mixes in the superblock's address, and in rare boots
# one superblock's sequential inode numbers spread with no collision.
mkdir -p /tmp/sysfs2
unshare -n mount -t sysfs sysfs /tmp/sysfs2
echo "sysfs_entries $(find /tmp/sysfs2 | wc -l)"
umount /tmp/sysfs2
