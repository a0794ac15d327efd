# Lab case "latency", in the guest, booted with QEMU -icount, where a
# guest instruction takes one nanosecond: the cost per node --latency
# fits must be the walk loop's instructions per node. The long-chain
# policy, a warm table (every key cached by a first, untraced load).
. /lab/lib.sh

echo 16384 >/sys/fs/selinux/avc/cache_threshold
avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 1 >/dev/null 2>&1
case_ latency_icount pftrace -f avc_lookup --latency --no-samples -o /tmp/latency.json -- \
	avc-load -t 1500 -p lt -D ld0,ld1,ld2,ld3 -r 2
emit latency.json /tmp/latency.json
