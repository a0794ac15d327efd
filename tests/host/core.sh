# Host tier: every BPF object's CO-RE relocations resolve against this
# host's own kernel BTF (6.18), a kernel none of the lab boots. A field
# that exists in no kernel must be caught (the negative control).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
out=$top/.output
btf=/sys/kernel/btf/vmlinux

for obj in "$out"/*.bpf.o; do
	name=$(basename "$obj")
	if "$out/tools/core-check" "$btf" "$obj" >"$out/tools/$name.core" 2>&1; then
		ok "$name: CO-RE relocations resolve against $(uname -r) BTF ($(grep -o '[0-9]* CO-RE relocations resolved' "$out/tools/$name.core"))"
	else
		not_ok "$name: CO-RE relocations resolve against $(uname -r) BTF"
		diag "$out/tools/$name.core"
	fi
done
bad_report=$("$out/tools/core-check" "$btf" "$out/tools/core-bad.bpf.o" 2>&1)
bad_rc=$?
check "negative control: core-check fails on an unresolvable field" [ $bad_rc -ne 0 ]
check "negative control: and names it" grep -q ' 1 unresolved' <<<"$bad_report"
summary host
