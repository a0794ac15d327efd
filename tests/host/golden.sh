#!/usr/bin/env bash
# Golden outputs: what every command's help, every report format, whatif,
# diff, merge and plot print for the run files in docs/examples/. A refactor
# must leave them byte for byte as they were; a change of behaviour
# changes the expected file in the same commit, where a reviewer sees it.
#
#   tests/host/golden.sh            check (host tier)
#   tests/host/golden.sh --update   rewrite tests/golden/ from ./pftrace
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=${PFTRACE_BIN:-$top/pftrace}
golden=$top/tests/golden
update=
[ "${1:-}" = --update ] && update=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME COMMAND...: stdout, stderr and the exit status of COMMAND, run in
# docs/examples so that file names print as they will in the docs
case_() {
	local name=$1 out=$tmp/$1
	shift
	(cd "$top/docs/examples" && "$pftrace" "$@") >"$out.raw" 2>"$out.err"
	printf '=== exit %d\n' $? >"$out.rc"
	${mask:-cat} <"$out.raw" >"$out"
	cat "$out.rc" >>"$out"
	sed 's/^/stderr: /' "$out.err" >>"$out"
	if [ -n "$update" ]; then
		cp "$out" "$golden/$name"
	elif cmp -s "$out" "$golden/$name"; then
		ok "golden $name"
	else
		not_ok "golden $name: output differs from tests/golden/$name"
		diff -u "$golden/$name" "$out" 2>&1 | sed -n '1,30p' | sed 's/^/#   /'
	fi
}

# whatif times the bucket functions and a node on this CPU for its
# verdicts: those figures (and the verdicts that follow from them) vary
# from run to run, the rest does not
mask_text() {
	sed -E '/costs here| ns |^What if \(/{ s/[+-]?[0-9]+(\.[0-9]+)?/N/g; s/pays off|no clear gain|costs more/VERDICT/; s/ns (more|less)/ns MORE/; }'
}
mask_json() {
	jq 'walk(if type == "object" then del(.verdict, .node_cost, .hash_costs) else . end)' 2>&1
}

short=avc-6.12-short-chains.json
long=avc-6.12-long-chains.json
case_ help --help
case_ help-long help
for c in $("$pftrace" __doc options | awk '$1 != "-" { print $1 }' | sort -u); do
	case_ "help-$c" help "$c"
	case_ "$c--help" "$c" --help
done
for d in scd bash zsh options; do
	case_ "doc-$d" __doc "$d"
done
for f in text json openmetrics prometheus csv; do
	case_ "report-short-$f" report "$short" --format "$f"
	case_ "report-long-$f" report "$long" --format "$f"
done
snap=../../tests/fuzz/corpus/runfile/snapshot.json
ctsnap=../../tests/fuzz/corpus/runfile/conntrack-snapshot.json
tenants=../../tests/fuzz/corpus/runfile/tenants.json
for f in text json; do
	mask=mask_$f
	case_ "whatif-nosnap-$f" whatif "$short" --format "$f"
	case_ "whatif-snap-$f" whatif "$snap" --format "$f"
	case_ "whatif-snap-bits-$f" whatif "$snap" --bits 3,5,9 --format "$f"
	case_ "whatif-snap-hash-$f" whatif "$snap" --hash xor,jhash --format "$f"
	case_ "whatif-snap-lookups-$f" whatif "$snap" --lookups "$snap" --format "$f"
	case_ "whatif-lookups-nokeys-$f" whatif "$snap" --lookups "$short" --format "$f"
	mask=
	# conntrack's 1536 buckets (no bits), other sizes, and filled to 20000 entries
	case_ "whatif-ct-$f" whatif "$ctsnap" --buckets 1024,3072 --format "$f"
	case_ "whatif-ct-entries-$f" whatif "$ctsnap" --buckets 1536,3072 --entries 20000 --format "$f"
done
for f in text json; do
	case_ "report-ct-$f" report "$ctsnap" --format "$f"
done
for f in text json openmetrics prometheus csv; do
	[ "$f" = text ] && mask=mask_text
	case_ "report-snap-$f" report "$snap" --format "$f"
	mask=
	case_ "report-tenants-$f" report "$tenants" --format "$f"
done
case_ diff diff "$short" "$long"
for f in json openmetrics prometheus; do
	case_ "merge-$f" merge "$short" "$long" --format "$f"
done

# plot's golden output is the README's picture (make docs/plot-example.svg)
if [ -z "$update" ]; then
	(cd "$top/docs/examples" && "$pftrace" plot "$short" "$long" -o -) >"$tmp/plot.svg" 2>&1
	check "golden plot: docs/plot-example.svg" cmp -s "$tmp/plot.svg" "$top/docs/plot-example.svg"
fi

if [ -n "$update" ]; then
	echo "golden: $(ls "$golden" | wc -l) files written to tests/golden/"
	exit 0
fi
summary host
