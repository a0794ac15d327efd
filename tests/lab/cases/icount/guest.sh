# Lab case "icount", in the guest (QEMU -icount shift=0): instructions
# sampled, and --latency's cost per node, under the long-chain policy's
# load. QEMU raises the instructions counter's overflow late: its
# samples land where the guest next takes an interrupt (el0_svc's
# return, the idle loop), not in avc_lookup.
. /lab/lib.sh
pmu_long_load

case_ insn pftrace -f avc_lookup -e instructions -F 4999 -o /tmp/insn.json -- $load -r 2
emit insn.json /tmp/insn.json
case_ latency pftrace -f avc_lookup --latency --no-samples -o /tmp/latency.json -- $load -r 2
emit latency.json /tmp/latency.json
