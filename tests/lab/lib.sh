# Helpers for the lab's cases (tests/lab/cases/NAME/check.sh), sourced by
# tests/lab/suite after tests/lib.sh. A case's checks run in a subshell
# of the suite, with:
#   k        the kernel series (6.12), as the suite was asked for it
#   arch     x86 or arm64, the suite's --arch
#   release  the release that kernel booted (6.12.117+deb13-cloud-amd64)
#   case     the case's name; case_dir its directory in the tree
#   dir      where its guest's outputs landed: one file per block the
#            guest emitted (emit, case_ and bracketed in guest/lib.sh)
#   log      the guest's whole output (stdout and stderr)
#   logs     the suite's log directory; top, here: the tree, tests/lab

# --- what the guest printed ----------------------------------------------------

# out NAME: the path of the block NAME the guest emitted (an empty file
# when it emitted none, so that a check on it fails rather than errors)
out() {
	[ -e "$dir/$1" ] || : >"$dir/$1"
	echo "$dir/$1"
}

# output_of CASE NAME: a block of another case on this kernel, which the
# case names in its case.conf's needs (the suite runs those first)
output_of() {
	[ -e "$logs/$k/$1/$2" ] || : >"$logs/$k/$1/$2"
	echo "$logs/$k/$1/$2"
}

# marker KIND NAME: the value of the guest's "=== KIND NAME VALUE" line
marker() { awk -v t="$1" -v n="$2" '$1 == "===" && $2 == t && $3 == n { print $4 }' "$log"; }
rc_of() { marker RC "$1"; }
value_of() { marker VALUE "$1"; }
kernel_lookups() { marker KERNEL_LOOKUPS "$1"; }

# split_blocks LOG DIR: every "=== BEGIN NAME" ... "=== END NAME" of LOG
# into DIR/NAME. Blocks may overlap or repeat: a block holds every line
# between its markers, a repeated one its parts in order.
split_blocks() {
	mkdir -p "$2"
	awk -v d="$2" '
		{
			for (n in open)
				if ($0 == "=== END " n) { close(d "/" n); delete open[n] }
			for (n in open)
				print >> (d "/" n)
		}
		/^=== BEGIN [^\/]+$/ {
			n = substr($0, 11)
			if (!(n in seen)) { printf "" > (d "/" n); close(d "/" n); seen[n] = 1 }
			open[n] = 1
		}' "$1"
}

# release_at_least VERSION: the booted release is VERSION or later, by
# version order
release_at_least() { [ "$(printf '%s\n%s\n' "${release%%-*}" "$1" | sort -V | head -n 1)" = "$1" ]; }

# --- booting ---------------------------------------------------------------------

# lab_boot DIR DESCRIPTION [tests/lab/run options]: boot this kernel, run
# the case's guest.sh there (the case's directory is the guest's
# /lab/case), split what it printed into DIR; one check, DESCRIPTION,
# that it booted and ran. Sets log. With the suite's --recheck LOGS, the
# guest's output is the one of that earlier run instead, and nothing boots.
lab_boot() {
	local d=$1 what=$2
	shift 2
	log=$d/guest.log
	mkdir -p "$d"
	if [ -n "${recheck:-}" ]; then
		if cp "$recheck/${d#"$logs"/}/guest.log" "$log" 2>/dev/null; then
			ok "$k $case: $what (rechecked)"
			split_blocks "$log" "$d"
			return 0
		fi
		not_ok "$k $case: $what (rechecked, but $recheck holds no such guest log)"
		return 1
	fi
	if "$here/run" --arch "${arch:-x86}" --kernel "$k" --timeout 900 --add "$case_dir:/lab/case" "$@" \
		-- sh /lab/case/guest.sh >"$log" 2>&1; then
		ok "$k $case: $what"
		split_blocks "$log" "$d"
		return 0
	fi
	not_ok "$k $case: $what"
	tail -n 20 "$log" | sed 's/^/#   /'
	split_blocks "$log" "$d"
	return 1
}

# --- subtests --------------------------------------------------------------------

# subtest NAME FUNCTION: run FUNCTION's checks as CASE/NAME, unless the
# suite's -t selected other subtests of this case; a comment line says
# how many of them passed
subtest() {
	local p=$PASS f=$FAIL
	if [ -n "${subtests:-}" ] && ! case " $subtests " in *" $1 "*) true ;; *) false ;; esac; then
		return 0
	fi
	echo "# ${k:+$k }$case/$1"
	"$2"
	echo "# ${k:+$k }$case/$1: $((PASS - p)) passed, $((FAIL - f)) failed"
}

# --- checks more than one case makes ---------------------------------------------

expect_refusal() { # CASE PATTERN: exit 2 and one line on stderr matching
	local err
	err=$(out "$1.err")
	check "$k $1: exit status 2" [ "$(rc_of "$1")" = 2 ]
	check "$k $1: one line on stderr" one_line "$err"
	check "$k $1: says '$2'" grep -q -- "$2" "$err"
}

# A traced run: counts consistent, self-check passed, programs gone.
check_run_json() { # NAME JSON METHOD
	local n=$1 j=$2 method=$3
	check "$k $n: run file is pftrace JSON" jq_true "$j" '.tool == "pftrace" and .schema == 1'
	check "$k $n: kernel.release is the booted $release" jq_true "$j" ".kernel.release == \"$release\""
	check "$k $n: traced avc_lookup via $method" \
		jq_true "$j" ".targets[0].traced == \"avc_lookup\" and .targets[0].method == \"$method\" and .targets[0].recipe == \"avc\""
	check "$k $n: hits + misses == lookups > 0" \
		jq_true "$j" '.targets[0] | .lookups > 0 and .hits + .misses == .lookups'
	check "$k $n: chain_walked buckets sum to the completed walks" \
		jq_true "$j" '.targets[0] | ([.chain_walked[].count] | add) == .walk.completed'
	check "$k $n: hit_position buckets sum to the walk hits" \
		jq_true "$j" '.targets[0] | ([.hit_position[].count] | add) == .walk.hits'
	check "$k $n: completed + truncated + unreadable == lookups" \
		jq_true "$j" '.targets[0] | .walk.completed + .truncated + .read_faults == .lookups'
	check "$k $n: self-check agreement >= 99.9%" \
		jq_true "$j" '.targets[0].self_check | .ok and .agree * 1000 >= .checked * 999 and .checked > 0'
	check "$k $n: prefetch model adds up" \
		jq_true "$j" '.targets[0] | .prefetch_model.issued == .walk.nodes and .prefetch_model.null + .prefetch_model.nonnull_only == .prefetch_model.issued and .prefetch_model.null == (.walk.misses - .walk.empty_bucket_misses + .next_null_at_hit)'
}

# within_oracle DESCRIPTION MEASURED ORACLE: MEASURED within 1% of the
# kernel's own count ORACLE, both named in the line
within_oracle() {
	if within_pct "${2:-0}" "${3:-0}" 1; then
		ok "$k $1 ${2} within 1% of ${4:-cache_stats delta} ${3}"
	else
		not_ok "$k $1 ${2:-?} within 1% of ${4:-cache_stats delta} ${3:-?}"
	fi
}

# check_bracketed NAME SIGNAL METHOD: a run of guest/lib.sh's bracketed,
# ended by SIGNAL, against the kernel's count of the lookups in between
check_bracketed() {
	local n=$1 sig=$2 method=$3 j during after
	j=$(out "$n.json")
	during=$(out "$n.during")
	after=$(out "$n.after")
	check "$k $n: exit 0 after SIG$sig" [ "$(rc_of "$n")" = 0 ]
	check_run_json "$n" "$j" "$method"
	check "$k $n: end_reason SIG$sig" jq_true "$j" ".end_reason == \"SIG$sig\""
	within_oracle "$n: lookups" "$(jq '.targets[0].lookups' "$j" 2>/dev/null)" "$(kernel_lookups "$n")"
	check "$k $n: text report shows the nodes-walked histogram" \
		grep -q 'nodes walked per lookup' "$(out "$n.out")"
	check "$k $n: programs attached while tracing" grep -qE "_avc_look" "$during"
	check "$k $n: no pftrace program left after SIG$sig" \
		sh -c "! grep -qE '(fexit|kprobe|kretprobe)_avc' '$after'"
	check "$k $n: no BPF link left after SIG$sig" \
		[ "$(awk '/^progs/ { print $4 }' "$after")" = "$(awk '/^progs/ { print $4 }' "$(out "$n.before")")" ]
}

# arm64_method: how avc_lookup attaches on this arm64 kernel: fexit needs
# ftrace direct calls there, from 6.4; 5.10 and 6.1 take kprobes
arm64_method() { if release_at_least 6.4; then echo fexit; else echo kprobe; fi; }

# per_node_in_loop JSON UNIT: under -icount a guest instruction is a
# nanosecond of QEMU's virtual clock (and an emulated cycle on arm64), so
# --latency's cost per node in UNIT must be the walk loop's instructions.
# Tolerance, stated: the fit lies within the shortest and the longest
# path once round the loop (which compare fails first varies from node
# to node), widened by one instruction, and its 95% interval overlaps
# that range.
per_node_in_loop() {
	check "$k --latency under -icount: cost per node $(jq -r '.targets[0].latency.fit.per_node | . * 100 | round / 100' "$1" 2>/dev/null) $2 within the walk loop's $(jq -r '.targets[0].latency.loop_instructions | "\(.min_path) to \(.max_path)"' "$1" 2>/dev/null) instructions" \
		jq_true "$1" '.targets[0].latency | (.fit.poor | not) and .fit.per_node >= .loop_instructions.min_path - 1 and .fit.per_node <= .loop_instructions.max_path + 1 and .fit.per_node_hi >= .loop_instructions.min_path and .fit.per_node_lo <= .loop_instructions.max_path'
}

# no_progs_left NAME: the BPF objects after NAME as before it
no_progs_left() {
	check "$k $1: no pftrace program or link left" \
		[ "$(awk '/^progs/ { print $4 }' "$(out "$1.after")")" = "$(awk '/^progs/ { print $4 }' "$(out "$1.before")")" ]
}
