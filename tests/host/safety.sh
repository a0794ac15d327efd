# Host tier: pftrace runs as root, so every path, file, environment
# variable and stream it is given is treated as hostile. Each hostile
# input is one `hostile` line below, and one row of
# docs/hostile-inputs.md, which this test writes from the same lines and
# checks is current (tests/host/safety.sh --update-doc rewrites it).
# Case 14 of the first set (-i with --format json) needs a traced kernel
# and is checked in the lab (tests/lab/suite, interval_json).
# PFTRACE=/path/to/pftrace runs these checks against another build
# (make unit runs them again through an ASan build, SAFETY_SANITIZED=1).
# Root is needed by two set-ups only, not by pftrace's verdicts: case 2
# gives a file to nobody (chown), case 11 switches to nobody (su).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$(realpath "${PFTRACE:-$top/pftrace}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
minimal=$top/tests/fuzz/corpus/runfile/minimal.json
doc=$tmp/hostile-inputs.md
committed_doc=$top/docs/hostile-inputs.md
nhostile=0
cat >"$doc" <<'EOF'
# Hostile inputs

What pftrace does with what an attacker or a careless operator gives it:
files, paths, environment variables and full disks. Each row is one check
of tests/host/safety.sh, which `make unit` runs, and runs again through the
AddressSanitizer and UBSan build. The test writes this table from its own
list and fails when the committed one differs
(`tests/host/safety.sh --update-doc` rewrites it).

Exit 2: refused, with one line on stderr that matches the message and
nothing on stdout. Exit 1: a write failed, one line on stderr. Exit 0: the
input is read and shown safely, and the message is what stdout holds.

| # | input | exit | message |
|---|---|---|---|
EOF

# a table cell: one line, pipes escaped
md_cell() {
	printf '%s' "$1" | tr '\n\t' '  ' | sed 's/|/\\|/g'
}

# hostile INPUT EXIT PATTERN COMMAND...: one hostile input and its row.
# EXIT 1 or 2: COMMAND exits so with exactly one line on stderr matching
# PATTERN (grep), and for 2 nothing on stdout. EXIT 0: nothing on stderr,
# PATTERN in stdout. HOSTILE_STDOUT=FILE sends stdout there (/dev/full).
hostile() {
	local input=$1 want=$2 pattern=$3 out err rc good=
	shift 3
	nhostile=$((nhostile + 1))
	printf '| %d | %s | %d | `%s` |\n' "$nhostile" "$(md_cell "$input")" "$want" \
		"$(md_cell "$pattern")" >>"$doc"
	out=$(mktemp)
	err=$(mktemp)
	"$@" >"${HOSTILE_STDOUT:-$out}" 2>"$err"
	rc=$?
	if [ "$want" -eq 0 ]; then
		[ $rc -eq 0 ] && [ ! -s "$err" ] && grep -q -- "$pattern" "$out" && good=y
	else
		[ $rc -eq "$want" ] && one_line "$err" && grep -q -- "$pattern" "$err" &&
			{ [ "$want" -ne 2 ] || [ ! -s "$out" ]; } && good=y
	fi
	if [ -n "$good" ]; then
		ok "hostile $nhostile: $input: exit $want"
	else
		not_ok "hostile $nhostile: $input: exit $want (got $rc)"
		diag "$err"
	fi
	rm -f "$out" "$err"
}

synthetic() { "$pftrace" replay --synthetic chain=1 -r 5 "$@"; }
kind() { stat -c %F "$1"; }

# run_file NAME [KEY=JSON | KEY:=TEXT | KEY=-]...: a run file ($base, by
# default minimal.json) with KEYs set. KEY is a path: a/b/0 below
# targets[0], /a/b below the root. KEY:=TEXT puts TEXT in verbatim (1e400,
# a NaN literal); KEY=- deletes it.
base=$minimal
run_file() {
	local name=$1
	shift
	python3 - "$base" "$@" >"$name" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
raw = {}
for i, kv in enumerate(sys.argv[2:]):
    verbatim = ":=" in kv.split("=", 1)[0] + "="
    k, v = kv.split(":=" if verbatim else "=", 1)
    where = run if k.startswith("/") else run["targets"][0]
    path = [int(p) if p.isdigit() else p for p in k.strip("/").split("/")]
    for p in path[:-1]:
        where = where[p]
    if v == "-":
        del where[path[-1]]
        continue
    if verbatim:
        raw['"@@raw%d@@"' % i] = v
        v = '"@@raw%d@@"' % i
    where[path[-1]] = json.loads(v)
text = json.dumps(run)
for k, v in raw.items():
    text = text.replace(k, v)
sys.stdout.write(text)
PY
}

# 1. -o replaces only a regular file: devices, FIFOs and links stay
mknod null-copy c 1 3
mknod full-copy c 1 7
mkfifo fifo
ln -s /proc/self/fd/1 link-to-stdout
# (a copy of /dev/null, not the real one: a regression would replace it)
for target in null-copy full-copy fifo link-to-stdout; do
	before=$(kind "$target")
	hostile "-o $target ($before)" 2 "-o $target: is a" timeout 10 "$pftrace" replay \
		--synthetic chain=1 -r 5 -o "$target"
	check "1: $target is still a $before" [ "$(kind "$target")" = "$before" ]
done
synthetic -o - >stdout.json
check "1: -o - writes the run to stdout, and no file named '-'" \
	sh -c "jq -e '.replay' stdout.json && [ ! -e ./- ]"

# 2. a new file's mode follows the umask; an existing one keeps mode and owner
(umask 077 && synthetic -o u077.json >/dev/null)
(umask 027 && synthetic -o u027.json >/dev/null)
check "2: umask 077 gives 0600" [ "$(stat -c %a u077.json)" = 600 ]
check "2: umask 027 gives 0640" [ "$(stat -c %a u027.json)" = 640 ]
echo old >kept.json
chmod 0604 kept.json
chown nobody kept.json
synthetic -o kept.json >/dev/null
check "2: an existing nobody 0604 file is replaced and stays nobody 0604" \
	sh -c "[ \"\$(stat -c '%U %a' kept.json)\" = 'nobody 604' ] && jq -e .replay kept.json"

# 3. replay -o onto its own input, under another spelling, keeps the run
cp "$minimal" r.json
"$pftrace" replay r.json -r 5 -o ./r.json >/dev/null
check "3: replay r.json -o ./r.json keeps the targets and adds the replay" \
	jq_true r.json '(.targets | length) == 1 and .targets[0].lookups == 3 and .replay.reps == 5'
check "3: ...and report reads it back" "$pftrace" report r.json
run_file unknown-recipe.json 'recipe="no\u001bsuch"'
hostile "replay of a run whose recipe this pftrace does not know" 2 \
	"recipe 'no\\\\x1bsuch' is not one this pftrace knows" "$pftrace" replay unknown-recipe.json -r 5
synthetic -o syn.json >/dev/null
check "3: report reads a replay --synthetic -o file" "$pftrace" report syn.json

# 4. --vmlinux must be the running kernel
hostile "sites --vmlinux of pftrace's own binary" 2 "is not the running kernel" \
	"$pftrace" sites --vmlinux "$pftrace" -f avc_lookup

# 5. counts that do not fit are refused on read, and merge does not wrap
run_file past.json 'hit_position=[{"min": 1, "max": 1, "count": 1000}]'
hostile "hit_position summing past chain_walked" 2 "1000 hits at position 1 but only 2 walks" \
	"$pftrace" report past.json
run_file wrap.json hits=18446744073709551615 misses=4
hostile "hits + misses wrapping onto lookups" 2 "out of range" "$pftrace" report wrap.json
big=6000000000000000000
run_file big.json lookups=$big hits=$big misses=0 next_null_at_hit=$big \
	"chain_walked=[{\"min\": 1, \"max\": 1, \"count\": $big}]" \
	"hit_position=[{\"min\": 1, \"max\": 1, \"count\": $big}]" \
	"self_check={\"agree\": $big, \"disagree\": 0, \"checked\": $big, \"agree_pct\": 100.0, \"ok\": true}"
check "5: a run of 6e18 lookups reads" "$pftrace" report big.json
hostile "merge of 6e18 + 6e18 lookups" 2 "overflow" "$pftrace" merge big.json big.json

# 6. nothing blocks: FIFOs and character devices as inputs
for how in "report fifo" "report /dev/kmsg" "-f avc_lookup --btf fifo -d 1" \
	   "sites --vmlinux fifo"; do
	# shellcheck disable=SC2086
	hostile "$how, without blocking" 2 "not a regular file" timeout 10 "$pftrace" $how
done

# 7. no undefined conversion of a huge node size
hostile "--synthetic node=1e300" 2 "node=1e+300 is not a whole number of bytes" \
	"$pftrace" replay --synthetic chain=1,node=1e300 -r 5

# 8. memory stays a bounded multiple of the file size
peak_kb() { # COMMAND...: peak RSS of COMMAND in kB
	python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
python3 - <<'PY'
import json
run = json.load(open("r.json"))
buckets = ",".join('{"min": 1, "max": 1, "count": 1}' for _ in range(1500000))
text = json.dumps(run)
open("huge.json", "w").write(text.replace('"chain_walked": [', '"chain_walked": [' + buckets + ",", 1))
small = ",".join('{"min": 1, "max": 1, "count": 1}' for _ in range(400000))
open("many.json", "w").write(text.replace('"chain_walked": [', '"chain_walked": [' + small + ",", 1))
PY
hostile "a 42 MB run file (1.5 M buckets)" 2 "larger than" "$pftrace" report huge.json
# (memory figures mean nothing under ASan's shadow memory)
if [ -z "${SAFETY_SANITIZED:-}" ]; then
	kb=$(peak_kb "$pftrace" report huge.json)
	check "8: ...refused in under 32 MB (peak $kb kB)" [ "$kb" -lt 32768 ]
fi
size_kb=$(( $(stat -c %s many.json) / 1024 ))
hostile "a ${size_kb} kB run file of 400,000 buckets" 2 "too many JSON values" "$pftrace" report many.json
if [ -z "${SAFETY_SANITIZED:-}" ]; then
	kb=$(peak_kb "$pftrace" report many.json)
	check "8: ...read in under 33 x its size + 8 MB (peak $kb kB)" [ "$kb" -lt $((33 * size_kb + 8192)) ]
fi

# 9. error lines name what the user typed, with a reason
hostile "pftrace -Xv" 2 "unknown option '-X'" "$pftrace" -Xv
for cmd in features merge replay sites; do
	hostile "$cmd -Xv" 2 "$cmd: unknown option '-X'" "$pftrace" "$cmd" -Xv
done
run_file schema0.json /schema=0
hostile "schema 0" 2 "schema 0 does not exist" "$pftrace" report schema0.json
run_file huge-count.json lookups=100000000000000000000000
hostile "lookups 1e23" 2 "lookups is out of range" "$pftrace" report huge-count.json
head -c 4096 /dev/urandom >random.bin
: >empty
hostile "--btf of random bytes" 2 "--btf random.bin: not a kernel BTF" \
	"$pftrace" -f avc_lookup --btf random.bin -d 1
hostile "an empty --btf" 2 "--btf empty: is empty" "$pftrace" -f avc_lookup --btf empty -d 1
hostile "--vmlinux that is not ELF" 2 "--vmlinux /etc/passwd: not an ELF file$" \
	"$pftrace" sites --vmlinux /etc/passwd
hostile "an empty run file" 2 "empty: is empty" "$pftrace" report empty

# 10. a trailing slash is refused before any work, and nothing is written
mkdir dir
hostile "-o dir/ (a directory)" 2 "-o dir/: names a directory" synthetic -o dir/
hostile "-o nodir/ (missing)" 2 "-o nodir/: names a directory" synthetic -o nodir/
check "10: ...and nothing written" sh -c '[ -z "$(ls -A dir)" ] && [ ! -e nodir ]'

# 11. unprivileged features says which capabilities are missing
su -s /bin/sh nobody -c "'$pftrace' features" >unpriv.txt 2>&1
check "11: features as nobody: exit 0" [ $? -eq 0 ]
check "11: ...says the process lacks CAP_BPF and CAP_PERFMON" \
	grep -q 'this process lacks CAP_BPF, CAP_PERFMON' unpriv.txt
check "11: ...and CAP_SYSLOG for kallsyms" grep -q 'lacks CAP_SYSLOG' unpriv.txt

# 12. control characters from a run file never reach the terminal raw
run_file ctl.json "traced=\"avc\\u001b[2J\\u001b]0;owned\\u0007\\nFake: line\"" \
	"/command=\"pftrace\\u001b[31m -f x\""
"$pftrace" report ctl.json >ctl.txt 2>&1
check "12: report of escapes: exit 0" [ $? -eq 0 ]
check "12: ...no ESC or BEL byte in the text" sh -c "! LC_ALL=C grep -q \"\$(printf '[\\033\\007]')\" ctl.txt"
check "12: ...no fake line" sh -c "! grep -q '^Fake: line' ctl.txt"
check "12: ...the escape shown as \\x1b" grep -qF 'avc\x1b[2J' ctl.txt

# 13. an interval too short to advance is refused
hostile "-i 1e-300" 2 "-i wants a number of seconds (0.1 <= N" "$pftrace" -f avc_lookup -i 1e-300 -d 1
hostile "-i 0" 2 "-i wants a number of seconds" "$pftrace" -f avc_lookup -i 0 -d 1

# 14. (the JSON stream is checked in the lab) OpenMetrics has one exposition
hostile "-i with -o -" 2 "-i and -o - would both write to stdout" \
	"$pftrace" -f avc_lookup -i 1 -d 2 -o -
hostile "-i with --format openmetrics" 2 "-i reports intervals as text or json" \
	"$pftrace" -f avc_lookup -i 1 -d 2 --format openmetrics

# NUL in strings: C would cut "avc_lookup\u0000evil" at the NUL, so no
# reader takes one; strings are strings, and fit where they are kept
run_file nul.json 'traced="avc_lookup\u0000evil"'
hostile "a traced name holding a NUL (\\u0000)" 2 'targets\[0\]\.traced holds a NUL byte' \
	"$pftrace" report nul.json
run_file nul-cmd.json '/command="pftrace\u0000 -f x"'
hostile "the command holding a NUL" 2 'command holds a NUL byte' "$pftrace" report nul-cmd.json
run_file nul-release.json '/kernel/release="6.12\u0000"'
hostile "kernel.release holding a NUL" 2 'release holds a NUL byte' "$pftrace" report nul-release.json
run_file nul-last.json 'traced="avc_lookup\u0000"'
hostile "a traced name ending in a NUL" 2 'holds a NUL byte' "$pftrace" report nul-last.json
hostile "diff of a run holding a NUL" 2 'nul.json: targets\[0\]\.traced holds a NUL byte' \
	"$pftrace" diff "$minimal" nul.json
hostile "merge of a run holding a NUL" 2 'holds a NUL byte' "$pftrace" merge "$minimal" nul.json
hostile "plot of a run holding a NUL" 2 'holds a NUL byte' "$pftrace" plot nul.json -o nul.svg
base=$top/tests/fuzz/corpus/runfile/snapshot.json
run_file nul-hash.json 'snapshot/hash="xor\u0000jhash"'
hostile "whatif of a snapshot whose hash name holds a NUL" 2 'hash holds a NUL byte' \
	"$pftrace" whatif nul-hash.json
base=$minimal
run_file nonstring.json 'traced=42'
hostile "a traced name that is a number" 2 'targets\[0\]\.traced is not a string' \
	"$pftrace" report nonstring.json
run_file long-name.json "traced=\"$(head -c 5000 /dev/zero | tr '\0' a)\""
hostile "a traced name of 5000 bytes" 2 'traced is longer than 4096 bytes' \
	"$pftrace" report long-name.json
run_file long-started.json "/started=\"$(head -c 100 /dev/zero | tr '\0' 9)\""
hostile "a start time of 100 bytes (40 are kept)" 2 'started is longer than 39 bytes' \
	"$pftrace" report long-started.json
synthetic -o syn-nul.json >/dev/null
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["replay"]["traced"] = "x\u0000y"; json.dump(d, open(sys.argv[1], "w"))' syn-nul.json
hostile "a replay section whose traced name holds a NUL" 2 'replay\.traced holds a NUL byte' \
	"$pftrace" report syn-nul.json

# non-finite numbers: json-c takes NaN and Infinity and reads 1e400 as
# infinity; no reader does, so no writer can pass one on
strict_json() { # FILE: JSON as RFC 8259 has it, no NaN or Infinity
	python3 -c 'import json, sys
def no(c): raise ValueError(c)
json.load(open(sys.argv[1]), parse_constant=no)' "$1"
}
run_file dur-inf.json '/duration_s:=Infinity'
hostile "duration_s: Infinity" 2 'duration_s is not a finite number' "$pftrace" report dur-inf.json
run_file dur-1e400.json '/duration_s:=1e400'
hostile "duration_s: 1e400 (infinity once parsed)" 2 'duration_s is not a finite number' \
	"$pftrace" report --format json dur-1e400.json
run_file dur-minf.json '/duration_s:=-Infinity'
hostile "duration_s: -Infinity" 2 'duration_s is not a finite number' "$pftrace" report dur-minf.json
run_file dur-nan.json '/duration_s:=NaN'
hostile "duration_s: NaN (not 'negative')" 2 'duration_s is not a finite number' \
	"$pftrace" report dur-nan.json
run_file dur-str.json '/duration_s="1.0"'
hostile "duration_s: \"1.0\", a string (not 0 s)" 2 'duration_s is not a number' \
	"$pftrace" report dur-str.json
run_file dur-tiny.json '/duration_s:=1e-320'
hostile "duration_s: 1e-320 (an infinite rate)" 2 'duration_s .* is below a nanosecond' \
	"$pftrace" report --format json dur-tiny.json
run_file dur-neg.json '/duration_s=-1'
hostile "duration_s: -1" 2 'duration_s is out of range' "$pftrace" report dur-neg.json
run_file dur-big.json '/duration_s=1e13'
hostile "duration_s: 1e13" 2 'duration_s is out of range' "$pftrace" report dur-big.json
hostile "merge of a run of duration_s Infinity" 2 'dur-inf.json: duration_s is not a finite number' \
	"$pftrace" merge "$minimal" dur-inf.json
hostile "diff of a run of duration_s NaN" 2 'duration_s is not a finite number' \
	"$pftrace" diff dur-nan.json "$minimal"
run_file dur-half.json '/duration_s=6e11'
hostile "merge of two runs of 6e11 s (past 1e12 s)" 2 'duration_s or cpu_s overflows' \
	"$pftrace" merge dur-half.json dur-half.json
run_file startup-inf.json '/startup_ms:=Infinity'
hostile "startup_ms: Infinity" 2 'startup_ms is not a finite number' \
	"$pftrace" report --format json startup-inf.json
run_file cpus-inf.json '/machine={"cpus": 1e400}'
hostile "machine.cpus: 1e400" 2 'cpus is not a finite number' "$pftrace" report cpus-inf.json
run_file rss-nan.json '/peak_rss_kb:=NaN'
hostile "peak_rss_kb: NaN" 2 'peak_rss_kb is not a finite number' "$pftrace" report rss-nan.json
run_file fit-inf.json 'latency={"unit": "ns", "fit": {"per_node": 5, "per_node_lo": -1e400, "per_node_hi": 1e400, "fixed": 1, "residual": 0}}'
hostile "a latency fit whose interval is -1e400 to 1e400" 2 'per_node_lo is not a finite number' \
	"$pftrace" report --format json fit-inf.json
run_file duty-str.json '/duration_s=10' 'duty_cycle={"one_in": 4, "slices": 100, "slice_ms": "20", "attached_s": 2.5, "scale": 4, "switching_s": 0}'
hostile "a duty cycle whose slice_ms is the string \"20\"" 2 'slice_ms is not a number' \
	"$pftrace" report duty-str.json
base=$top/tests/fuzz/corpus/runfile/snapshot.json
run_file took-nan.json 'snapshot/took_ms:=NaN'
hostile "a snapshot that took NaN ms" 2 'took_ms is not a finite number' \
	"$pftrace" report --format json took-nan.json
base=$minimal
for f in "$minimal" "$top"/tests/fuzz/corpus/runfile/*.json "$top"/docs/examples/*.json; do
	for fmt in json; do
		"$pftrace" report --format $fmt "$f" >strict.json 2>/dev/null
		check "report --format json of ${f##*/} is JSON, no NaN or Infinity" strict_json strict.json
	done
done
"$pftrace" merge "$minimal" "$minimal" >merged.json 2>/dev/null
check "merge's output is JSON, no NaN or Infinity" strict_json merged.json

# the replay section: each pass a finite, positive time, and the medians
# those passes give, not the file's word
synthetic -o replay-base.json >/dev/null
replay_file() { # NAME PYTHON: replay-base.json with PYTHON run on its replay section r
	python3 - replay-base.json "$2" >"$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["replay"]
none = r["per_lookup"]["none"]
exec(sys.argv[2])
text = json.dumps(d)
sys.stdout.write(text.replace('"@inf"', "Infinity").replace('"@nan"', "NaN"))
PY
}
replay_file replay-inf.json 'none["samples"][0] = "@inf"'
hostile "a replay pass of Infinity" 2 'samples\[0\] is not a finite number' "$pftrace" report replay-inf.json
replay_file replay-neg.json 'none["samples"][1] = -1e300'
hostile "a replay pass of -1e300" 2 'samples\[1\] is out of range' "$pftrace" report replay-neg.json
replay_file replay-str.json 'none["samples"][2] = "fast"'
hostile "a replay pass of \"fast\"" 2 'samples\[2\] is not a number' "$pftrace" report replay-str.json
replay_file replay-nan.json 'none["samples"][3] = "@nan"'
hostile "a replay pass of NaN" 2 'samples\[3\] is not a finite number' "$pftrace" report replay-nan.json
replay_file replay-zero.json 'none["samples"][4] = 0'
hostile "a replay pass of 0" 2 'samples\[4\] is out of range' "$pftrace" report replay-zero.json
replay_file replay-mnan.json 'none["median"] = "@nan"'
hostile "a replay median of NaN" 2 'median is not a finite number' "$pftrace" report replay-mnan.json
replay_file replay-lie.json 'none["median"] = 1e6'
hostile "a replay median its samples do not give" 2 'none.median 1e+06 is not its samples' \
	"$pftrace" report replay-lie.json
replay_file replay-lo.json 'none["lo"] = 0.001'
hostile "a replay interval its samples do not give" 2 'none.lo 0.001 is not its samples' \
	"$pftrace" diff replay-lo.json replay-base.json
replay_file replay-mode.json 'r["mode"] = "hot"'
hostile "a replay mode pftrace does not write" 2 "replay.mode 'hot'" "$pftrace" report replay-mode.json
replay_file replay-unit.json 'r["unit"] = "ms"'
hostile "a replay unit pftrace does not write" 2 "replay.unit 'ms'" "$pftrace" report replay-unit.json
replay_file replay-short.json 'r["per_lookup"]["every_node"]["samples"].pop()'
hostile "replay options of different pass counts" 2 'every_node has 4 samples' \
	"$pftrace" report replay-short.json
replay_file replay-7.json 'for o in r["per_lookup"].values(): o["samples"] = [7, 7, 7, 7, 7.5]; o["median"] = o["lo"] = 7; o["hi"] = 7.5'
hostile "replay passes of 7 and 7.5 ticks: the median shown is theirs" 0 'no prefetch 7.00' \
	"$pftrace" report replay-7.json

# per-key counts: below 2^63 each, and no more than the target's lookups
snap=$top/tests/fuzz/corpus/runfile/snapshot.json
key_counts() { # NAME PYTHON: snapshot.json with PYTHON run on recs, its [k, hits, misses]
	python3 - "$snap" "$2" >"$1" <<'PY'
import base64, json, struct, sys
d = json.load(open(sys.argv[1]))
kc = d["targets"][0]["snapshot"]["lookups_by_key"]
raw = base64.b64decode(kc["base64"])
recs = [[raw[i:i + 10]] + list(struct.unpack("<QQ", raw[i + 10:i + 26])) for i in range(0, len(raw), 26)]
exec(sys.argv[2])
kc["base64"] = base64.b64encode(b"".join(r[0] + struct.pack("<QQ", r[1], r[2]) for r in recs)).decode()
kc["count"] = len(recs)
json.dump(d, sys.stdout)
PY
}
key_counts keys-max.json 'recs[0][1] = recs[0][2] = 2**64 - 1'
hostile "a key counted 2^64-1 hits and 2^64-1 misses" 2 'lookups_by_key: record 0 counts past 2^63' \
	"$pftrace" whatif keys-max.json
key_counts keys-2e63.json 'recs[0][1] = 2**63'
hostile "a key counted 2^63 hits" 2 'record 0 counts past 2^63' "$pftrace" report keys-2e63.json
key_counts keys-wrap.json 'recs[0][1] = recs[0][2] = 2**63 - 2'
hostile "a key's hits and misses summing past 2^63" 2 'lookups_by_key overflows' \
	"$pftrace" whatif keys-wrap.json
key_counts keys-more.json 'recs[5][1] += 1000'
hostile "keys counted 1000 more lookups than the target made" 2 \
	'1209 lookups by key (0 of them dropped), more than the target.s 209' "$pftrace" whatif keys-more.json
key_counts keys-dropped.json 'kc["dropped"] = 10**6'
hostile "a million lookups dropped by a target of 209" 2 'more than the target.s 209' \
	"$pftrace" report --format json keys-dropped.json
key_counts keys-limit.json 'kc["limit"] = 4'
hostile "20 keys counted in a map of 4" 2 'lookups_by_key: 20 keys in a map of 4' \
	"$pftrace" whatif keys-limit.json
key_counts keys-said.json 'recs.append(recs[0]); kc["count"] = 0'
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["targets"][0]["snapshot"]["lookups_by_key"]["count"] = 20; json.dump(d, open(sys.argv[1], "w"))' keys-said.json
hostile "21 key records where the file says 20" 2 'lookups_by_key: 21 records, 20 said' \
	"$pftrace" whatif keys-said.json
hostile "whatif --lookups from a run whose keys count past its lookups" 2 'more than the target' \
	"$pftrace" whatif "$snap" --lookups keys-more.json

# plot's JSON lines (-i --format json): each line is read as a run file
# is, by the same rules, at the same cost per line
intervals() { # NAME PYTHON: three interval lines of minimal.json's target and its run, PYTHON run on lines (a list of dicts)
	python3 - "$minimal" "$2" >"$1" <<'PY'
import copy, json, sys
run = json.load(open(sys.argv[1]))
lines = [{"interval_end": "12:00:0%d" % i, "interval_s": 1.0, "targets": [copy.deepcopy(run["targets"][0])]} for i in range(3)]
lines.append(run)
t = lines[1]["targets"][0]
exec(sys.argv[2])
out = "\n".join(l if isinstance(l, str) else json.dumps(l) for l in lines) + "\n"
sys.stdout.write(out.replace('"@inf"', "Infinity"))
PY
}
big=$((2 ** 63 - 2))
intervals il-ok.jsonl ''
hostile "JSON lines of three intervals and the run" 0 '<svg' "$pftrace" plot il-ok.jsonl -o -
intervals il-max.jsonl "t.update(lookups=$big, hits=$big, misses=0, next_null_at_hit=0, chain_walked=[{'min': 1, 'max': 1, 'count': $big}], hit_position=[{'min': 1, 'max': 1, 'count': $big}], self_check={'agree': $big, 'disagree': 0})"
"$pftrace" plot il-max.jsonl -o il-max.svg 2>/dev/null
check "an interval of 2^63 - 2 lookups draws, every shade a colour (0 to 255)" \
	sh -c "grep -q 'fill=\"rgb(' il-max.svg && ! grep -Eq 'rgb\\((-|[0-9]{4}|2[6-9][0-9]|25[6-9])' il-max.svg"
# il_case NAME PYTHON INPUT PATTERN: plot of three intervals with PYTHON run on them, refused
il_case() {
	intervals "$1.jsonl" "$2"
	hostile "$3" 2 "$4" "$pftrace" plot "$1.jsonl" -o il.svg
}
il_case il-63 "t['chain_walked'] = [{'min': 1, 'max': 1, 'count': 2**63 - 1}]" \
	"an interval's bucket of 2^63 - 1" 'line 2: chain_walked.count is out of range'
il_case il-64 "t['chain_walked'] = [{'min': v, 'max': v, 'count': 2**62 + 2**61} for v in (1, 2)]" \
	"an interval's buckets summing past 2^63 (an empty column)" 'line 2: chain_walked overflows'
il_case il-sum "t['lookups'] = 4" \
	"an interval's hits + misses not its lookups" 'line 2: targets\[0\]: hits 2 + misses 1 != lookups 4'
il_case il-neg "t['chain_walked'][0]['count'] = -5" \
	"an interval's bucket of -5" 'line 2: chain_walked.count is negative'
il_case il-inf "lines[2]['interval_s'] = '@inf'" \
	"an interval of Infinity seconds" 'line 3: interval_s is not a finite number'
il_case il-zero "lines[0]['interval_s'] = 0" \
	"a first interval of 0 seconds" 'line 1: interval_s is out of range'
il_case il-nul "t['traced'] = 'avc_lookup\\0'" \
	"an interval whose target's name holds a NUL" 'line 2: targets\[0\].traced holds a NUL byte'
il_case il-notjson "lines[1] = '{\"interval_s\": 1, oops'" \
	"a line that is not JSON" 'line 2: not JSON'
il_case il-other "lines[1] = {'hello': 1}" \
	"a line that is neither an interval nor the run" 'line 2: neither an interval record'
il_case il-badrun "lines[3]['targets'][0]['hits'] = 3" \
	"a closing run line whose hits + misses are not its lookups" 'line 4: targets\[0\]: hits 3'
il_case il-nulbyte "lines[1] = json.dumps(lines[1]) + '\\0'" \
	"a NUL byte after a line's JSON" 'line 2: not JSON'
il_case il-costly "t['pad'] = [[] for _ in range(200000)]" \
	"a line of 200,000 empty lists (its tree 80 x the text)" 'line 2: too many JSON values'
il_case il-huge "t['pad'] = 'x' * (17 << 20)" \
	"a line of 17 MB (a run file is at most 16)" 'line 2: larger than 16777216 bytes'
if [ -z "${SAFETY_SANITIZED:-}" ]; then
	kb=$(peak_kb "$pftrace" plot il-huge.jsonl -o il.svg)
	check "...refused in under 200 MB (peak $kb kB)" [ "$kb" -lt 204800 ]
	intervals il-mem.jsonl "t['pad'] = [100] * 2800000"
	check "a 14 MB line under a 244 MB memory limit: 'out of memory', not 'not JSON'" \
		sh -c "(ulimit -v 250000; '$pftrace' plot il-mem.jsonl -o il.svg) 2>&1 | grep -q 'line 2: out of memory reading its'"
fi
intervals il-many.jsonl "lines[:3] = [lines[0]] * 4097"
hostile "4097 intervals" 2 'more than 4096 intervals' "$pftrace" plot il-many.jsonl -o il.svg

# what a reader takes, the writer writes back and the reader takes again
# (the run-file fuzzer asserts it; these are the cases it found)
run_file nochain.json 'chain_walked=-'
hostile "hit positions without the walks they are checked against" 2 \
	'targets\[0\] has hit_position but no chain_walked' "$pftrace" report --format json nochain.json
run_file nochain2.json 'chain_walked=-' 'hit_position=-'
hostile "next_null_at_hit without the walks" 2 'has next_null_at_hit but no chain_walked' \
	"$pftrace" report --format json nochain2.json
run_file nochain3.json 'chain_walked=-' 'hit_position=-' 'next_null_at_hit=-'
hostile "no histograms, yet a self-check that passed" 2 \
	'has no chain_walked, yet its self-check passed' "$pftrace" report --format json nochain3.json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); k = d["targets"][0]["snapshot"]["keys"]; del k["base64"]; k["omitted"] = "too many"; json.dump(d, open(sys.argv[2], "w"))' \
	"$top/tests/fuzz/corpus/runfile/snapshot.json" nokeys.json
"$pftrace" report --format json nokeys.json >nokeys-again.json 2>/dev/null
check "a snapshot whose keys were left out is written back without keys, and read again" \
	sh -c "jq -e '.targets[0].snapshot.keys | has(\"base64\") | not' nokeys-again.json && '$pftrace' report nokeys-again.json"

# a full disk: every command the build host runs, with stdout at
# /dev/full, fails with exit 1 and one line; the trace, snapshot and
# sites need a kernel to trace and are checked in the lab
cp "$top/tests/fuzz/corpus/runfile/snapshot.json" snap.json
cp "$minimal" min.json
full_case() { # COMMAND...: pftrace COMMAND > /dev/full
	HOSTILE_STDOUT=/dev/full hostile "pftrace $* >/dev/full" 1 '^pftrace: stdout: ' "$pftrace" "$@"
}
registry=$("$pftrace" __doc options | awk '{ print $1 }' | sort -u)
covered=
for cmd in $registry; do
	case $cmd in
	-) full_case --help; full_case --version; full_case version; full_case help; full_case help report ;;
	features) full_case features; full_case features --format json ;;
	list) full_case list; full_case list --format json ;;
	report)
		for fmt in text json csv openmetrics prometheus; do
			full_case report --format "$fmt" snap.json
		done ;;
	diff) full_case diff min.json snap.json ;;
	merge)
		for fmt in json openmetrics prometheus; do
			full_case merge --format "$fmt" min.json min.json
		done
		full_case merge -o - min.json min.json ;;
	whatif) full_case whatif snap.json; full_case whatif --format json snap.json ;;
	plot) full_case plot min.json -o -; full_case plot il-ok.jsonl -o - ;;
	replay) full_case replay --synthetic chain=2 -r 5; full_case replay --synthetic chain=2 -r 5 -o - ;;
	sites|snapshot) ;;   # the lab's: they trace the kernel
	*) not_ok "a command of the registry, $cmd, has no /dev/full case" ;;
	esac
	[ "$cmd" = - ] || full_case "$cmd" --help
	covered="$covered $cmd"
done
check "the registry's commands all have their /dev/full case:$covered" \
	[ "$(echo $covered | wc -w)" -eq "$(echo "$registry" | wc -l)" ]

# CSV (RFC 4180): a traced name is one field, quoted where it must be,
# and never a spreadsheet formula
csv_first_field() { # FILE NAME: every row has 4 fields and the first is NAME
	python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["traced", "histogram", "nodes", "count"], rows[0]
assert len(rows) > 1 and all(len(r) == 4 for r in rows), rows
assert all(r[0] == sys.argv[2] for r in rows[1:]), (rows[1][0], sys.argv[2])' "$1" "$2"
}
csv_case() { # FILE-STEM TRACED SHOWN PATTERN
	run_file "$1.json" "traced=$(python3 -c 'import json, sys; print(json.dumps(sys.argv[1]))' "$2")"
	hostile "report --format csv of a traced name $2" 0 "$4" "$pftrace" report --format csv "$1.json"
	"$pftrace" report --format csv "$1.json" >"$1.csv" 2>/dev/null
	check "...read by an RFC 4180 reader: 4 fields a row, the name as $3" csv_first_field "$1.csv" "$3"
}
csv_case csv-formula "=cmd|'/c calc'!A1,x\"y" "'=cmd|'/c calc'!A1,x\"y" "^\"'=cmd|'/c calc'!A1,x\"\"y\",chain_walked,"
csv_case csv-plus "+1+1" "'+1+1" "^\"'+1+1\",chain_walked"
csv_case csv-minus "-2+3" "'-2+3" "^\"'-2+3\",hit_position"
csv_case csv-at "@SUM(1)" "'@SUM(1)" "^\"'@SUM(1)\","
csv_case csv-comma "a,b" "a,b" '^"a,b",chain_walked,1,2$'
csv_case csv-quote 'say "hi"' 'say "hi"' '^"say ""hi""",'
csv_case csv-newline $'two\nlines' 'two\x0alines' '^two\\x0alines,chain_walked'
csv_case csv-plain "avc_lookup" "avc_lookup" '^avc_lookup,chain_walked,1,2$'

# file names from argv reach the terminal escaped, as a run file's
# strings are: ESC, BEL and a newline in a name cannot forge a line
evil=$'evil\e[2J\a\nFake: line.json'
shown='evil\\x1b\[2J\\x07\\x0aFake: line.json'
cp "$minimal" "$evil"
"$pftrace" diff "$evil" "$minimal" >diff-evil.txt 2>&1
check "diff of a file named with ESC, BEL and a newline: exit 0" [ $? -eq 0 ]
check "...no ESC or BEL byte on the terminal" sh -c "! LC_ALL=C grep -q \"\$(printf '[\\033\\007]')\" diff-evil.txt"
check "...no forged line" sh -c "! grep -q '^Fake: line' diff-evil.txt"
hostile "diff of a file named with ESC, BEL and a newline" 0 "^before: $shown (6.12.0" \
	"$pftrace" diff "$evil" "$minimal"
hostile "diff of a missing file so named" 2 "pftrace: missing-$shown: No such file" \
	"$pftrace" diff "missing-$evil" "$minimal"
run_file "bad-$evil" 'lookups=4'
hostile "report of a bad run file so named" 2 "^pftrace: bad-$shown: targets\[0\]: hits 2" \
	"$pftrace" report "bad-$evil"
hostile "whatif of a run without a snapshot, so named" 2 "whatif: $shown has no snapshot" \
	"$pftrace" whatif "$evil"
hostile "whatif --lookups of a file so named, without counts" 2 "whatif: $shown counted no lookups" \
	"$pftrace" whatif "$top/tests/fuzz/corpus/runfile/snapshot.json" --lookups "$evil"
python3 -c 'import copy, json, sys; d = json.load(open(sys.argv[1])); t = copy.deepcopy(d["targets"][0]); t["traced"] = "avc_lookup2"; d["targets"].append(t); json.dump(d, open("two.json", "w"))' "$minimal"
hostile "merge of runs of other targets, one so named" 2 "^pftrace: $shown: 1 targets, two.json has 2" \
	"$pftrace" merge two.json "$evil"
hostile "plot of a bad run file so named" 2 "^pftrace: bad-$shown: targets" \
	"$pftrace" plot "bad-$evil" -o evil.svg
hostile "-o into a directory named with ESC and a newline" 2 '\-o evil\\x1b\[2J\\x0a/: names a directory' \
	synthetic -o $'evil\e[2J\n/'
hostile "merge -o with an extension of ESC" 2 "-o x\\\\x1b.txt: pftrace writes JSON" \
	"$pftrace" merge "$minimal" "$minimal" -o $'x\e.txt'
hostile "an option's value holding ESC and BEL" 2 "not 'x\\\\x1b\[2J\\\\x07'" \
	"$pftrace" report --format $'x\e[2J\a' "$minimal"
hostile "--btf of a missing file so named" 2 "btf $shown-gone: No such file" \
	"$pftrace" -f avc_lookup --btf "$evil-gone" -d 1

# diff of a run with no walks: no figure of walks, not p99 -1 and -200%
run_file nowalk.json lookups=0 hits=0 misses=0 next_null_at_hit=0 'chain_walked=[]' \
	'hit_position=[]' 'self_check={"agree": 0, "disagree": 0}'
hostile "diff of a run with no walks, before" 0 '^  p99 nodes walked  *-  *1$' \
	"$pftrace" diff nowalk.json "$minimal"
"$pftrace" diff nowalk.json "$minimal" >nowalk.txt 2>&1
check "...no -1 and no percentage change of walks" sh -c "! grep -E 'walked.*(-1 |%)' nowalk.txt"
hostile "diff of a run with no walks, after" 0 '^  mean nodes walked  *0.667  *-$' \
	"$pftrace" diff "$minimal" nowalk.json
hostile "diff of two runs with no walks" 0 '^  hit rate  *-  *-$' "$pftrace" diff nowalk.json nowalk.json
run_file truncated.json truncated=3 next_null_at_hit=0 'chain_walked=[]' 'hit_position=[]'
hostile "diff of a run whose every walk was truncated" 0 '^  p99 nodes walked  *1  *-$' \
	"$pftrace" diff "$minimal" truncated.json

# PFTRACE_KALLSYMS, a test seam in the shipped binary: a regular file or
# nothing; never a blocking open, never a missing path taken for /proc's
mkfifo ksyms-fifo
ln -s ksyms-fifo ksyms-link
mkdir ksyms-dir
ksyms_case() { # INPUT PATTERN VALUE COMMAND...
	local input=$1 pattern=$2 value=$3
	shift 3
	hostile "PFTRACE_KALLSYMS=$input, $*" 2 "$pattern" env PFTRACE_KALLSYMS="$value" timeout 10 "$pftrace" "$@"
}
ksyms_case "a FIFO" 'PFTRACE_KALLSYMS ksyms-fifo: is a FIFO, not a regular file' ksyms-fifo features
ksyms_case /dev/zero 'PFTRACE_KALLSYMS /dev/zero: is a character device' /dev/zero features
ksyms_case "a missing path" 'PFTRACE_KALLSYMS missing: No such file or directory' missing features
ksyms_case "\"\" (empty)" 'PFTRACE_KALLSYMS is empty' "" features
ksyms_case "a directory" 'PFTRACE_KALLSYMS ksyms-dir: is a directory' ksyms-dir features
ksyms_case "a link to a FIFO" 'is a FIFO, not a regular file' ksyms-link features
ksyms_case "a FIFO" 'PFTRACE_KALLSYMS ksyms-fifo: is a FIFO' ksyms-fifo -f avc_lookup -d 1
ksyms_case "a FIFO" 'PFTRACE_KALLSYMS ksyms-fifo: is a FIFO' ksyms-fifo sites -f avc_lookup
ksyms_case "a FIFO" 'PFTRACE_KALLSYMS ksyms-fifo: is a FIFO' ksyms-fifo list
printf 'ffffffff81000000 T _stext\nffffffff82000000 D init_task\n' >ksyms-copy
env PFTRACE_KALLSYMS=ksyms-copy "$pftrace" features >ksyms-features.txt 2>&1
check "PFTRACE_KALLSYMS of a regular copy is read: features exit 0, kallsyms with data symbols" \
	sh -c "[ $? -eq 0 ] && grep -q 'data symbols included' ksyms-features.txt"

# -o paths that could fail only after the work: the early check makes
# (and removes) the temporary file the write will go through
name245=$(head -c 245 /dev/zero | tr '\0' a).json
mkdir o245
hostile "-o a name of 245 bytes and .json (its temporary name would pass 255)" 0 'pftrace replay: synthetic' \
	synthetic -o "o245/$name245"
check "...written, and nothing else left beside it" sh -c "[ \"\$(ls -A o245)\" = '$name245' ] && jq -e .replay 'o245/$name245'"
name257=$(head -c 252 /dev/zero | tr '\0' b).json
hostile "-o a 257-byte name" 2 "-o bbbb*\.json: File name too long" synthetic -o "$name257"
hostile "-o /proc/newfile.json" 2 '-o /proc/newfile.json: cannot create a file there' \
	synthetic -o /proc/newfile.json
hostile "-o /sys/kernel/new.json" 2 '-o /sys/kernel/new.json: cannot create a file there' \
	synthetic -o /sys/kernel/new.json
hostile "a trace's -o /proc/newfile.json, refused before it attaches" 2 \
	'-o /proc/newfile.json: cannot create a file there' timeout 20 "$pftrace" -f avc_lookup -d 1 -o /proc/newfile.json
hostile "snapshot -o /sys/kernel/new.json" 2 '-o /sys/kernel/new.json: cannot create' \
	timeout 20 "$pftrace" snapshot -f avc_lookup -o /sys/kernel/new.json
hostile "merge -o /proc/fleet.json" 2 '-o /proc/fleet.json: cannot create a file there' \
	"$pftrace" merge "$minimal" "$minimal" -o /proc/fleet.json
hostile "plot -o /proc/p.svg" 2 '-o /proc/p.svg: cannot create a file there' \
	"$pftrace" plot "$minimal" -o /proc/p.svg
mkdir o-empty
synthetic -o o-empty/run.json >/dev/null
check "the early check leaves no temporary file behind" sh -c "[ \"\$(ls -A o-empty)\" = run.json ]"

# sections a reader takes are written back, not dropped: --by, the
# start-up phases, samples' hottest instructions, a replay
tenants=$top/tests/fuzz/corpus/runfile/tenants.json
short=$top/docs/examples/avc-6.12-short-chains.json
same_json() { # A B JQ: JQ gives the same in files A and B (numbers to 1e-6: written in 15 digits)
	local q="$3 | walk(if type == \"number\" then (. * 1e6 | round) else . end)"
	[ "$(jq -S "$q" "$1")" = "$(jq -S "$q" "$2")" ] && [ "$(jq -S "$3" "$1")" != null ]
}
"$pftrace" report --format json "$tenants" >tenants-again.json 2>/dev/null
check "report --format json keeps targets[].by, row for row" \
	same_json "$tenants" tenants-again.json '.targets[0].by'
"$pftrace" report --format prometheus "$tenants" >tenants.prom 2>/dev/null
check "report --format prometheus of a tenants run has its pftrace_by_* metrics" \
	sh -c "grep -q '^pftrace_by_lookups_total{.*comm=\"avc-load\".*} 44496$' tenants.prom"
"$pftrace" report --format json "$short" >short-again.json 2>/dev/null
check "report --format json keeps startup_phases" same_json "$short" short-again.json '.startup_phases'
check "...and samples.hottest" same_json "$short" short-again.json '.targets[0].samples.hottest'
check "...and the sampling counts" same_json "$short" short-again.json '.sampling'
"$pftrace" report --format json replay-7.json >replay-again.json 2>/dev/null
check "report --format json keeps a replay section, key for key" same_json replay-7.json \
	replay-again.json '.replay | del(.per_lookup[].ratio_to_none)'
"$pftrace" report --format json replay-base.json >rb.json 2>/dev/null
check "...its ratios to no prefetch computed from its passes" same_json replay-base.json rb.json \
	'.replay.per_lookup'
replay_file replay-walks.json 'r["counted"]["chain_walked"][0]["count"] += 1'
hostile "a replay whose walks do not sum to a pass's lookups" 2 'replay.counted.chain_walked: .* walks in a pass of' \
	"$pftrace" report replay-walks.json
replay_file replay-mean.json 'r["counted"]["mean_nodes"] += 0.5'
hostile "a replay whose mean walk is not its walks'" 2 'replay.counted.mean_nodes .* is not its walks' \
	"$pftrace" report replay-mean.json
replay_file replay-ratio.json 'r["requested"]["hit_ratio"] = 2'
hostile "a replay asked for a hit ratio of 2" 2 'replay.requested.hit_ratio is out of range' \
	"$pftrace" report replay-ratio.json
"$pftrace" merge replay-base.json replay-base.json -o replay-merged.json 2>replay-merged.err
check "merge leaves a replay out, and says so" \
	sh -c "jq -e 'has(\"replay\") | not' replay-merged.json && grep -q 'replays are one run' replay-merged.err"
for f in "$tenants" "$short" replay-7.json; do
	"$pftrace" report --format json "$f" >again1.json 2>/dev/null
	"$pftrace" report --format json again1.json >again2.json 2>/dev/null
	check "report --format json of ${f##*/}, read back and written again: the same" cmp -s again1.json again2.json
done
"$pftrace" merge "$tenants" "$tenants" >tenants-merged.json 2>/dev/null
check "merge adds --by rows of the same who" \
	sh -c "[ \"\$(jq '.targets[0].by.rows[0].lookups' tenants-merged.json)\" = 88992 ]"
hostile "merge of runs with start-up phases and samples says it leaves them out" 0 '"merged_runs": 2' \
	sh -c "'$pftrace' merge '$short' '$short' 2>merge-note.txt"
check "...in one line" grep -q 'merge: startup_phases and samples are one run.s each' merge-note.txt
base=$tenants
run_file noby.json 'by=-'
hostile "merge of a run with --by and one without" 2 'merge wants the same --by' \
	"$pftrace" merge "$tenants" noby.json
run_file by-key.json 'by/key="user"'
hostile "--by key 'user'" 2 "by.key 'user'; pftrace writes comm, pid or cgroup" "$pftrace" report by-key.json
run_file by-order.json 'by/rows/0/nodes=1'
hostile "--by rows out of order" 2 'by.rows\[1\] is out of order' "$pftrace" report by-order.json
run_file by-miss.json 'by/rows/1/misses=103'
hostile "a --by row of more misses than lookups" 2 '103 misses of 102 lookups' "$pftrace" report by-miss.json
run_file by-more.json 'by/rows/0/lookups=50000' 'by/rows/0/nodes=400000'
hostile "--by rows charging more lookups than the target made" 2 'more than the target.s 44612' \
	"$pftrace" report --format prometheus by-more.json
run_file by-nul.json 'by/rows/0/name="avc\u0000load"'
hostile "a --by row whose name holds a NUL" 2 'name holds a NUL byte' "$pftrace" report by-nul.json
run_file by-long.json "by/rows/0/name=\"$(head -c 300 /dev/zero | tr '\0' n)\""
hostile "a --by row name of 300 bytes" 2 'name is longer than 255 bytes' "$pftrace" report by-long.json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); by = d["targets"][0]["by"]; by["rows"] = [dict(by["rows"][2], name="p%d" % i, lookups=0, nodes=0, misses=0) for i in range(4097)]; json.dump(d, open("by-many.json", "w"))' "$tenants"
hostile "4097 --by rows" 2 'by has 4097 rows; pftrace writes at most 4096' "$pftrace" report by-many.json
base=$short
run_file hot-swap.json 'samples/hottest/0/samples=1' 'samples/hottest/3/samples=3'
hostile "samples' hottest not in order of their samples" 2 'samples.hottest is not its instructions. hottest' \
	"$pftrace" report hot-swap.json
run_file hot-more.json 'samples/hottest/0/samples=8'
hostile "an instruction of more samples than its function" 2 'an instruction at 5 with 8 samples' \
	"$pftrace" report hot-more.json
run_file hot-sum.json 'samples/samples=6'
hostile "instructions summing past their function's samples" 2 'its instructions have 7 samples, the function 6' \
	"$pftrace" report hot-sum.json
run_file hot-pf.json 'samples/prefetch=[{"offset": 20, "instruction": "prefetcht0 [rax]", "bytes": "zz", "samples": 0, "next_samples": 0}]'
hostile "a prefetch whose bytes are not hex" 2 "bytes 'zz' are no instruction's" "$pftrace" report hot-pf.json
run_file hot-overlap.json 'samples/prefetch=[{"offset": 4, "instruction": "prefetcht0 [rax]", "bytes": "0f 18 00", "samples": 0, "next_samples": 0}]'
hostile "a prefetch overlapping the next instruction" 2 'the prefetch at 4 overlaps' "$pftrace" report hot-overlap.json
run_file hot-pf-ok.json 'samples/prefetch=[{"offset": 20, "instruction": "prefetcht0 [rax]", "bytes": "0f 18 00", "samples": 0, "next_samples": 0}]'
"$pftrace" report --format json hot-pf-ok.json >hot-pf-again.json 2>/dev/null
check "a prefetch as annotate writes it (bytes '0f 18 00') is read and written back" \
	same_json hot-pf-ok.json hot-pf-again.json '.targets[0].samples.prefetch'
run_file hot-9.json 'samples/hottest=[{"offset": 1, "samples": 0, "instruction": "x"}, {"offset": 2, "samples": 0, "instruction": "x"}, {"offset": 3, "samples": 0, "instruction": "x"}, {"offset": 4, "samples": 0, "instruction": "x"}, {"offset": 5, "samples": 0, "instruction": "x"}, {"offset": 6, "samples": 0, "instruction": "x"}, {"offset": 7, "samples": 0, "instruction": "x"}, {"offset": 8, "samples": 0, "instruction": "x"}, {"offset": 9, "samples": 0, "instruction": "x"}]'
hostile "nine hottest instructions" 2 '9 hottest and 0 prefetch instructions; pftrace writes at most 8' \
	"$pftrace" report hot-9.json
run_file sampling-kernel.json '/sampling/kernel=5000'
hostile "more samples in the kernel than samples" 2 'sampling: 1963 samples, 5000 in the kernel' \
	"$pftrace" report sampling-kernel.json
run_file sampling-fn.json '/sampling/total=6' '/sampling/kernel=6' '/sampling/in_traced=6'
hostile "a function of more samples than were taken" 2 'targets\[0\].samples: 7 samples of 6' \
	"$pftrace" report sampling-fn.json
run_file phases-inf.json '/startup_phases/0/ms:=Infinity'
hostile "a start-up phase of Infinity ms" 2 'startup_phases.ms is not a finite number' \
	"$pftrace" report phases-inf.json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["startup_phases"] = [{"phase": "p%d" % i, "ms": 1} for i in range(33)]; json.dump(d, open("phases-33.json", "w"))' "$short"
hostile "33 start-up phases" 2 'startup_phases has 33 phases; pftrace writes at most 32' \
	"$pftrace" report phases-33.json
base=$minimal
run_file esc-1500.json "traced=\"$(python3 -c 'print("\\u001b" * 1500)')\""
hostile "a traced name of 1500 ESC bytes (6000 written back escaped)" 2 \
	'traced is longer than 4096 bytes, its control characters escaped' "$pftrace" report esc-1500.json

# merge and snapshots: a table's keys and their lookups are one run's;
# the merged run has none, and says so, rather than run 1's
cp "$top/tests/fuzz/corpus/runfile/snapshot.json" snap1.json
hostile "merge of two runs with snapshots and key counts" 0 '"merged_runs": 2' \
	sh -c "'$pftrace' merge snap1.json snap1.json 2>msnap-note.txt"
check "...says the snapshots are left out, in one line" \
	sh -c "one_line() { [ \"\$(grep -c . \"\$1\")\" -eq 1 ]; }; one_line msnap-note.txt && grep -q 'merge: snapshots are one run.s each' msnap-note.txt"
"$pftrace" merge snap1.json snap1.json -o msnap.json 2>/dev/null
check "...and the merged run has no snapshot" jq -e '.targets[0] | has("snapshot") | not' msnap.json
hostile "whatif of that merged run" 2 'whatif: msnap.json has no snapshot' "$pftrace" whatif msnap.json
run_file latfit.json 'latency={"unit": "ns", "fit": {"per_node": 5, "per_node_lo": 4, "per_node_hi": 6, "fixed": 1, "residual": 0.1}}'
"$pftrace" merge latfit.json latfit.json -o mlat.json 2>mlat-note.txt
check "merge leaves one run's latency fit out too, and says so" \
	sh -c "jq -e '.targets[0] | has(\"latency\") | not' mlat.json && grep -q 'latency fits are one run' mlat.json mlat-note.txt"

# merge of many files holds one at a time: its peak memory does not grow
# with their number (SAFETY_MERGE_FILES=100000 tries a fleet of that many)
peak_exec_kb() { # COMMAND...: the peak RSS of COMMAND itself (GNU time), in kB
	/usr/bin/time -f %M -o peak.kb "$@" >/dev/null 2>&1
	cat peak.kb
}
many=${SAFETY_MERGE_FILES:-3000}
mkdir many
python3 - "$minimal" "$many" <<'PY'
import sys
text = open(sys.argv[1]).read()
for i in range(int(sys.argv[2])):
    open("many/%d" % i, "w").write(text)
PY
(cd many && "$pftrace" merge $(seq 0 $((many - 1))) -o ../many.json 2>/dev/null)
check "merge of $many files: every run counted once" \
	sh -c "[ \"\$(jq .merged_runs many.json)\" = $many ] && [ \"\$(jq .targets[0].lookups many.json)\" = $((3 * many)) ]"
if [ -z "${SAFETY_SANITIZED:-}" ]; then
	kb_many=$(cd many && peak_exec_kb "$pftrace" merge $(seq 0 $((many - 1))) -o ../many.json)
	kb_few=$(cd many && peak_exec_kb "$pftrace" merge $(seq 0 29) -o ../few.json)
	check "...in under 100 MB (peak $kb_many kB), no more than 30 files' peak ($kb_few kB) + 4 MB" \
		sh -c "[ $kb_many -lt 102400 ] && [ $kb_many -lt $((kb_few + 4096)) ]"
fi
cp many/0 many/bad && run_file many/bad lookups=4
hostile "merge of $many files, the last one bad" 2 '^pftrace: bad: targets\[0\]: hits 2 + misses 1 != lookups 4' \
	sh -c "cd many && exec '$pftrace' merge \$(seq 0 $((many - 1))) bad"

# merge's command names its files as a reader shows them: escaped, cut
# to fit, and read back within the string bound
mkdir esc-names
for i in $(seq 100 399); do cp "$minimal" "esc-names/$(printf 'e\033\033\033\033')$i.json"; done
(cd esc-names && "$pftrace" merge e*.json -o ../esc-merged.json 2>/dev/null)
check "merge of 300 files named with ESC: the result reads back" "$pftrace" report esc-merged.json
check "...its command names them escaped, as a reader shows them" \
	sh -c "jq -r .command esc-merged.json | grep -qF 'pftrace merge e\\x1b\\x1b\\x1b\\x1b100.json'"

# the table in the docs is this list
if [ "${1:-}" = --update-doc ]; then
	cp "$doc" "$committed_doc"
fi
check "docs/hostile-inputs.md lists the $nhostile hostile inputs above" cmp -s "$doc" "$committed_doc"
check "at least 100 hostile inputs ($nhostile)" [ "$nhostile" -ge 100 ]

summary host
