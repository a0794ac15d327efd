# Start-up under plain TCG, run by bench/run on every lab kernel: pftrace
# from exec to every program attached (the run file's startup_ms, with
# its phases), three times, AVC + dcache as in the benchmark.
. /lab/lib.sh
# arm64: pftrace samples the emulated PMU, whose interrupts would have the
# kernel lower the sample rate below -F's at the first run (pmu_unthrottle)
[ "$(uname -m)" != aarch64 ] || pmu_unthrottle

r=0
while [ $r -lt 3 ]; do
	pftrace -f avc_lookup -f __d_lookup_rcu -o "/tmp/startup$r.json" -- true >/dev/null 2>&1
	emit "startup$r.json" "/tmp/startup$r.json"
	r=$((r + 1))
done
