# Workload of the "resize" case, run by pftrace itself (-- sh ...).
# Each table ends it as its lookups left it, so that the snapshot taken
# at the end is the table those lookups walked: nothing is unmounted,
# deleted or closed. The TCP connections stay open (tcp-load -H) until
# this script ends the trace with SIGINT to pftrace, its parent; pftrace
# takes its snapshots before it stops this script.
set -e
tcp-load -c 64 -n 3000 -H /tmp/tcp-held >/dev/null &
# mounts: a tower of tmpfs mounts, each crossed by every walk below
. /lab/tower.sh
mount_tower 12
walk_tower 300
# dcache: a tree, walked, and names that do not exist (negative dentries stay)
tree-walk -d 2 -w 120 -r 1 -m 20000 /tmp/tree >/dev/null
# inodes: kernfs inodes, hashed as sysfs is walked
find /sys -maxdepth 5 >/dev/null 2>&1 || true
while [ ! -e /tmp/tcp-held ]; do sleep 0.1; done
kill -INT "$PPID"
wait
