# Lab case "resize", in the guest: the same load at the default table
# sizes and, in a second boot, at the sizes given on the kernel command line
# (dhash_entries=, ihash_entries=, mhash_entries=, thash_entries=). Each
# boot traces the four tables with --snapshot; check.sh predicts the
# second from the first with pftrace whatif.
. /lab/lib.sh

ip link set lo up
dmesg | grep 'hash table entries' >/tmp/tables.dmesg
emit dmesg /tmp/tables.dmesg
echo "=== VALUE cmdline $(tr ' ' '\n' </proc/cmdline | grep -c '_entries=')"
case_ resize pftrace -f __d_lookup_rcu -f find_inode_fast -f __lookup_mnt \
	-f __inet_lookup_established --snapshot --no-samples -o /tmp/resize.json -- \
	sh /lab/case/load.sh
emit resize.json /tmp/resize.json
