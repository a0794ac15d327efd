# Soak scenario, run by bench/soak: pftrace on the AVC, dcache and mount
# tables for SOAK_SECONDS under a steady mixed load, its resident memory
# sampled every 30 s, and the kernel log checked for warnings after.
. /lab/lib.sh

seconds=${SOAK_SECONDS:-600}
ip link set lo up
(while :; do
	avc-load -t 8 -D user_t,daemon_t,worker_t -r 200 2>/dev/null
	tree-walk -d 2 -w 40 -r 2 /tmp/soak >/dev/null
	tcp-load -c 8 -n 200 >/dev/null
done) &
load=$!
dmesg -c >/dev/null
pftrace -f avc_lookup -f __d_lookup_rcu -f __lookup_mnt -f __inet_lookup_established \
	-d "$seconds" -o /tmp/soak.json >/tmp/soak.out 2>/tmp/soak.err &
pid=$!
wait_tracing /tmp/soak.err
t=0
while kill -0 "$pid" 2>/dev/null; do
	echo "=== RSS $t $(awk '/^VmRSS/ { print $2 }' /proc/$pid/status 2>/dev/null)"
	sleep 30
	t=$((t + 30))
done
wait "$pid"
echo "=== RC soak $?"
kill "$load"
dmesg >/tmp/dmesg.after
emit soak.json /tmp/soak.json
emit dmesg /tmp/dmesg.after
