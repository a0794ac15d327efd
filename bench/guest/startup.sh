# Start-up under plain TCG, run by bench/run on every lab kernel: pftrace
# from exec to every program attached (the run file's startup_ms, with
# its phases), three times, AVC + dcache as in the benchmark.
. /lab/lib.sh

r=0
while [ $r -lt 3 ]; do
	pftrace -f avc_lookup -f __d_lookup_rcu -o "/tmp/startup$r.json" -- true >/dev/null 2>&1
	emit "startup$r.json" "/tmp/startup$r.json"
	r=$((r + 1))
done
