# Assertions for the host-side shell tests (bash). TAP-like lines, and a
# closing "NAME: N passed, N failed" line that CI reads.

PASS=0
FAIL=0

ok() {
	PASS=$((PASS + 1))
	printf 'ok %d - %s\n' $((PASS + FAIL)) "$*"
}

not_ok() {
	FAIL=$((FAIL + 1))
	printf 'not ok %d - %s\n' $((PASS + FAIL)) "$*"
}

# check DESCRIPTION COMMAND...: passes when COMMAND exits 0
check() {
	local desc=$1
	shift
	if "$@" >/dev/null 2>&1; then
		ok "$desc"
	else
		not_ok "$desc"
		printf '#   failed: %s\n' "$*"
	fi
}

# show a file's head under a failure, as TAP comments
diag() {
	sed -n '1,40p' "$1" 2>/dev/null | sed 's/^/#   /'
}

# one_line FILE: the file holds exactly one non-empty line
one_line() {
	[ "$(grep -c . "$1")" -eq 1 ]
}

# jq_true FILE EXPR: EXPR is true for the JSON in FILE, which holds some
# (jq -e alone says yes to an empty file: a run that wrote nothing)
jq_true() {
	jq -e -n 'first(inputs) | true' "$1" >/dev/null 2>&1 && jq -e "$2" "$1" >/dev/null 2>&1
}

# within_pct A B PCT: |A - B| <= PCT% of B
within_pct() {
	awk -v a="$1" -v b="$2" -v p="$3" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'
}

# refuses DESCRIPTION PATTERN COMMAND...: COMMAND exits 2 with exactly
# one line on stderr, which matches PATTERN, and prints nothing on stdout
refuses() {
	local desc=$1 pattern=$2 out err rc
	shift 2
	out=$(mktemp)
	err=$(mktemp)
	"$@" >"$out" 2>"$err"
	rc=$?
	if [ $rc -eq 2 ] && one_line "$err" && grep -q -- "$pattern" "$err" && [ ! -s "$out" ]; then
		ok "refuses $desc: exit 2, one line"
	else
		not_ok "refuses $desc: exit 2, one line (got $rc)"
		diag "$err"
	fi
	rm -f "$out" "$err"
}

summary() {
	echo "$1: $PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
}
