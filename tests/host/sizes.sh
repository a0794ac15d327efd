#!/usr/bin/env bash
# Host tier: sizes a newcomer can read. No file in user/ over 700 lines,
# no function in user/ over 80, no BPF header (bpf/*.h) over 400; each
# offender is printed. A function's lines run from the line that names
# it to its closing brace, as universal-ctags reports them (its end
# field). The check is first run on a fixture, so that a checker that
# measures nothing cannot pass.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

MAX_FILE=700
MAX_FUNCTION=80
MAX_BPF_HEADER=400

# offenders ROOT: one line per file or function of ROOT over its limit,
# "file", "function" or "header" first
offenders() {
	local root=$1 f
	(
		cd "$root" || exit 1
		for f in user/*/*.[ch] bpf/*.h; do
			[ -e "$f" ] || continue
			case $f in
			user/*) set -- file $MAX_FILE ;;
			*) set -- header $MAX_BPF_HEADER ;;
			esac
			awk -v kind="$1" -v max="$2" -v f="$f" \
				'END { if (NR > max) printf "%s %s: %d lines (at most %d)\n", kind, f, NR, max }' "$f"
		done
		set -- user/*/*.[ch]
		[ -e "$1" ] || exit 0
		ctags -x --_xformat='%F %n %{end} %N' --kinds-C=f --language-force=C "$@" |
			awk -v max=$MAX_FUNCTION '
				$3 !~ /^[0-9]+$/ { printf "function %s:%s %s(): no end line from ctags\n", $1, $2, $4; next }
				$3 - $2 + 1 > max {
					printf "function %s:%s %s(): %d lines (at most %d)\n", $1, $2, $4,
					       $3 - $2 + 1, max
				}'
	)
}

# lines N: a line each, N of them
lines() {
	local i
	for ((i = 0; i < $1; i++)); do echo "/* $i */"; done
}

# function NAME N: a C function of exactly N lines, name to closing brace
function_of() {
	local i
	printf 'static int %s(int x,\n\t\tint y)\n{\n' "$1"
	for ((i = 0; i < $2 - 5; i++)); do printf '\tx += y; /* { */\n'; done
	printf '\treturn x;\n}\n'
}

if ! command -v ctags >/dev/null || ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
	not_ok "universal-ctags measures the functions (tools/install-deps installs it)"
	summary host
	exit
fi

# the fixture: each limit met exactly, and passed by one line
fix=$tmp/fixture
mkdir -p "$fix/user/layer" "$fix/bpf"
{ function_of at_limit 80; echo; function_of one_over 81; echo; function_of small 6; } \
	>"$fix/user/layer/functions.c"
lines 700 >"$fix/user/layer/at_limit.c"
lines 701 >"$fix/user/layer/one_over.c"
lines 400 >"$fix/bpf/at_limit.h"
lines 401 >"$fix/bpf/one_over.h"
offenders "$fix" | sort >"$tmp/fixture.got"
cat >"$tmp/fixture.want" <<EOF
file user/layer/one_over.c: 701 lines (at most 700)
function user/layer/functions.c:82 one_over(): 81 lines (at most 80)
header bpf/one_over.h: 401 lines (at most 400)
EOF
if cmp -s "$tmp/fixture.got" "$tmp/fixture.want"; then
	ok "the size check finds an 81-line function, a 701-line file and a 401-line BPF header, and passes each limit met exactly"
else
	not_ok "the size check on its fixture"
	diff "$tmp/fixture.want" "$tmp/fixture.got" | sed 's/^/#   /'
fi

offenders "$top" >"$tmp/tree"
for check in "file:no file in user/ over $MAX_FILE lines" \
	"function:no function in user/ over $MAX_FUNCTION lines" \
	"header:no BPF header (bpf/*.h) over $MAX_BPF_HEADER lines"; do
	kind=${check%%:*}
	if grep -q "^$kind " "$tmp/tree"; then
		not_ok "${check#*:}"
		grep "^$kind " "$tmp/tree" | sed "s/^$kind /#   /"
	else
		ok "${check#*:}"
	fi
done
summary host
