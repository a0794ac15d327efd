# Host tier: the contract between the BPF objects and user space is typed.
# Every map, program and section the built objects define (read off the
# objects themselves: the symbols of .maps and of the program sections,
# and the section names pftrace gives) reaches user/ through a
# skeleton's fields, so that renaming one breaks the build, not a run:
# none may appear in user/ as a string literal.
#
# The one place where libbpf leaves no typed way is the attach point a
# program's section names ("fexit/avc_lookup"): user/trace/target.c
# reads the kind and the function from bpf_program__section_name(), and
# compares them piecewise, never as a whole section name.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
out=$top/.output
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

objs=$(ls "$out"/*.bpf.o 2>/dev/null)
check "the BPF objects are built" [ -n "$objs" ]
for o in $objs; do
	# sections: the programs' and the named data (.rodata.walk), not the
	# ELF's own, the compiler's (.rodata.str1.1) or the relocations'
	llvm-readelf -S --wide "$o" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p' |
		grep -vE '^(\.(text|strtab|symtab|maps|rodata|data|bss|BTF|BTF\.ext|llvm_addrsig)|license|\.rel.*|\.rodata\.(str|cst).*)$'
	# maps (the symbols of .maps) and programs and global functions
	maps_idx=$(llvm-readelf -S --wide "$o" | sed -n 's/^ *\[ *\([0-9]*\)\] \.maps .*/\1/p')
	llvm-readelf -s --wide "$o" | awk -v m="$maps_idx" \
		'$5 == "GLOBAL" && ($4 == "FUNC" || $7 == m) { print $8 }'
done | grep . | sort -u >"$tmp/names"
check "names read off the objects: maps, programs and sections ($(wc -l <"$tmp/names"))" \
	sh -c "grep -qx chain_counters '$tmp/names' && grep -qx snapshot_table '$tmp/names' && grep -qx .data.pause '$tmp/names'"

# every string literal in user/, one a line (comments left out)
find "$top/user" -name '*.[ch]' | sort | while read -r f; do
	sed 's|//.*||' "$f" | awk -v f="${f#"$top"/}" '
		{ line = $0; n = NR
		  gsub(/\/\*.*\*\//, "", line)
		  if (incomment) { if (line ~ /\*\//) { sub(/.*\*\//, "", line); incomment = 0 } else next }
		  if (line ~ /\/\*/) { sub(/\/\*.*/, "", line); incomment = 1 }
		  while (match(line, /"([^"\\]|\\.)*"/)) {
			print f ":" n ":" substr(line, RSTART + 1, RLENGTH - 2)
			line = substr(line, RSTART + RLENGTH)
		  } }'
done >"$tmp/literals"
bad=$(awk -F: 'NR == FNR { name[$0] = 1; next } ($3 in name) { print $1 ":" $2 ": \"" $3 "\"" }' \
	"$tmp/names" "$tmp/literals")
if [ -z "$bad" ]; then
	ok "no map, program or section name as a string literal in user/"
else
	not_ok "no map, program or section name as a string literal in user/"
	echo "$bad" | sed 's/^/#   /'
fi

# the negative control: a literal of one of them is found
echo "user/x.c:1:chain_counters" >>"$tmp/literals"
bad=$(awk -F: 'NR == FNR { name[$0] = 1; next } ($3 in name) { print }' "$tmp/names" "$tmp/literals")
check "negative control: a literal \"chain_counters\" would be found" [ -n "$bad" ]
summary host
