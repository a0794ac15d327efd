# Host tier, first contact: help for every command from its option
# table, the man page and completions made from the same tables, "did you
# mean" and make install (the Debian package: tests/package/deb.sh); and
# the README and docs/ pages: links that resolve, every page reachable,
# no project history.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$top/tests/lib.sh"
pftrace=$top/pftrace
out=$top/.output
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every command's --help, and pftrace help COMMAND, exit 0 and list every
# option of its table (pftrace __doc options prints the tables)
"$pftrace" __doc options >"$tmp/options"
check "the option tables name all eleven commands" [ "$(cut -d' ' -f1 "$tmp/options" | sort -u | wc -l)" -eq 11 ]
for cmd in $(cut -d' ' -f1 "$tmp/options" | sort -u); do
	if [ "$cmd" = - ]; then help=(--help) helpcmd=(help); else help=("$cmd" --help) helpcmd=(help "$cmd"); fi
	"$pftrace" "${help[@]}" >"$tmp/help.$cmd" 2>&1
	rc=$?
	"$pftrace" "${helpcmd[@]}" >"$tmp/help2.$cmd" 2>&1
	rc2=$?
	missing=$(awk -v c="$cmd" '$1 == c { print $2; if ($3) print $3 }' "$tmp/options" |
		while read -r o; do grep -qE -- "(^|[ ,])$o( |,|$)" "$tmp/help.$cmd" || echo "$o"; done)
	check "pftrace ${help[*]}: exit 0, every option of its table listed${missing:+ (missing: $missing)}" \
		sh -c "[ $rc = 0 ] && [ -z '$missing' ]"
	check "pftrace ${helpcmd[*]}: exit 0, the same text" sh -c "[ $rc2 = 0 ] && cmp -s '$tmp/help.$cmd' '$tmp/help2.$cmd'"
done

# did you mean
refuses "a mistyped command" "unknown command 'raport'; did you mean report?" "$pftrace" raport x.json
refuses "a mistyped option" "unknown option '--durtion'; did you mean --duration?" "$pftrace" -f avc_lookup --durtion 5
refuses "a mistyped subcommand option" "unknown option '--bist'; did you mean --bits?" "$pftrace" whatif --bist 9 x.json
refuses "a mistyped function" "avc_lokup: no recipe knows this function; did you mean avc_lookup?" "$pftrace" -f avc_lokup
refuses "help for a mistyped command" "no command 'whatfi'; did you mean whatif?" "$pftrace" help whatfi
refuses "a function far from every recipe: the list, no guess" "kmalloc: no recipe knows this function (known: " "$pftrace" -f kmalloc

# -o names what is written: an extension pftrace does not write is refused
refuses "-o x.csv" "-o x.csv: pftrace writes JSON (.json, or no extension) or Prometheus text (.prom), not '.csv'" "$pftrace" -f avc_lookup -o x.csv
refuses "merge -o fleet.txt" "not '.txt'" "$pftrace" merge a.json b.json -o fleet.txt
refuses "replay -o r.prom (a run file, not metrics)" "not '.prom'" "$pftrace" replay --synthetic chain=3 -o r.prom
check "-o into a dotted directory, no extension: not refused for its name" \
	sh -c "'$pftrace' -f avc_lookup -o '$tmp/a.b/run' -d 1 2>&1 | grep -vq 'pftrace writes JSON'"

# report prints the trace's histograms (their counts add up to the walks),
# in 72 columns; diff is in log2 buckets, and percentages change in points
run=$top/tests/fuzz/corpus/runfile/tenants.json
"$pftrace" report "$run" >"$tmp/report.txt"
check "report: the chain-length histogram, its counts summing to the completed walks" \
	sh -c "[ \"\$(awk '/^     nodes +: count/ { on = 1; next } on && /^ +[0-9]+ : / { s += \$3; next } { on = 0 } END { print s }' '$tmp/report.txt')\" = \"\$(jq '.targets[0].walk.completed' '$run')\" ]"
check "report: the hit-position histogram too, all in 72 columns" \
	sh -c "grep -q '^Hit position:' '$tmp/report.txt' && ! awk 'length > 72' '$tmp/report.txt' | grep -q ."
"$pftrace" report --format csv "$run" >"$tmp/report.csv"
check "report --format csv: a header, then chain_walked rows summing to the completed walks" \
	sh -c "head -1 '$tmp/report.csv' | grep -qx 'traced,histogram,nodes,count' && [ \"\$(awk -F, '\$2 == \"chain_walked\" { s += \$4 } END { print s }' '$tmp/report.csv')\" = \"\$(jq '.targets[0].walk.completed' '$run')\" ]"
check "report --format json: the run's counts" \
	sh -c "[ \"\$('$pftrace' report --format json '$run' | jq '.targets[0].lookups')\" = \"\$(jq '.targets[0].lookups' '$run')\" ]"
check "report --format prometheus and openmetrics: parsed by prometheus_client" \
	sh -c "'$pftrace' report --format prometheus '$run' >'$tmp/r.prom' && '$pftrace' report --format openmetrics '$run' >'$tmp/r.om' && /usr/bin/python3 -c 'import sys; from prometheus_client.parser import text_string_to_metric_families as p; from prometheus_client.openmetrics.parser import text_string_to_metric_families as o; assert list(p(open(sys.argv[1]).read())) and list(o(open(sys.argv[2]).read()))' '$tmp/r.prom' '$tmp/r.om'"
refuses "report --format xml" "--format wants text, json, openmetrics, prometheus or csv" "$pftrace" report --format xml "$run"
"$pftrace" diff "$run" "$run" >"$tmp/diff.txt"
check "diff: hit rate and NULL prefetches change in percentage points" \
	sh -c "grep -qE '^  hit rate +100.00% +100.00% +\+0.00 pp$' '$tmp/diff.txt' && grep -qE '^  NULL prefetches .* pp$' '$tmp/diff.txt'"
check "diff: chain lengths in log2 buckets (2 -> 3, 4 -> 7, ...), not one row per length" \
	sh -c "grep -qE '^ +2 -> 3 : ' '$tmp/diff.txt' && grep -qE '^ +16 -> 31 : ' '$tmp/diff.txt' && ! grep -qE '^ +17 : ' '$tmp/diff.txt'"
"$pftrace" merge "$run" "$run" >"$tmp/merged.json"
check "JSON doubles in 15 significant digits, never json-c's 17" \
	sh -c "grep -qE '[0-9][.][0-9]{6,}' '$tmp/merged.json' && ! grep -qE '[0-9][.][0-9]{16,}' '$tmp/merged.json'"

# plot: SVG that is well-formed XML, renders (rsvg-convert) to a picture
# that is not blank, and says what diff says
svg_ok() { # FILE.svg: parses as XML, and its PNG has ink and colours
	/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" &&
		rsvg-convert "$1" -o "$1.png" &&
		"$top/tests/tools/png-ink" "$1.png" | awk '{ exit !($3 > 0.02 && $4 >= 3) }'
}
"$pftrace" plot "$run" -o "$tmp/run.svg"
check "plot RUN: exit 0, well-formed SVG, rendered by rsvg-convert to a picture that is not blank" svg_ok "$tmp/run.svg"
check "plot RUN: both histograms, with every bucket's count in its tooltip" \
	sh -c "grep -q 'nodes walked per lookup' '$tmp/run.svg' && grep -q 'position of the found entry' '$tmp/run.svg' && [ \"\$(grep -c '<title>' '$tmp/run.svg')\" -eq \"\$(jq '[.targets[0].chain_walked[], .targets[0].hit_position[]] | length' '$run')\" ]"
"$pftrace" plot "$run" "$run" -o "$tmp/same.svg"
check "plot A A: an overlay whose verdict is diff's: no significant difference" \
	sh -c "grep -q 'show no significant difference' '$tmp/same.svg' && '$pftrace' diff '$run' '$run' | grep -q 'no significant difference'"
for i in 1 2 3; do jq -c '{interval_end: "t", interval_s: 0.5, targets: [.targets[0]]}' "$run"; done >"$tmp/intervals.jsonl"
jq -c . "$run" >>"$tmp/intervals.jsonl"
"$pftrace" plot "$tmp/intervals.jsonl" -o "$tmp/heat.svg"
check "plot of -i's JSON lines: a heat map, three columns, not blank" \
	sh -c "svg_ok() { /usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \"\$1\" && rsvg-convert \"\$1\" -o \"\$1.png\" && '$top/tests/tools/png-ink' \"\$1.png\" | awk '{ exit !(\$3 > 0.02 && \$4 >= 3) }'; }; svg_ok '$tmp/heat.svg' && grep -q 'every 0.5 s' '$tmp/heat.svg' && grep -q '>1.5<' '$tmp/heat.svg' && ! grep -q '>2<' '$tmp/heat.svg'"
(cd "$top/docs/examples" && "$pftrace" plot avc-6.12-short-chains.json avc-6.12-long-chains.json -o "$tmp/example.svg")
check "the README's picture is what pftrace plot draws from docs/examples/ now" cmp -s "$tmp/example.svg" "$top/docs/plot-example.svg"
refuses "plot without -o" "give -o FILE.svg" "$pftrace" plot "$run"
refuses "plot -o x.png" "plot writes SVG" "$pftrace" plot "$run" -o "$tmp/x.png"
refuses "plot of three files" "plot wants one run file, or two" "$pftrace" plot "$run" "$run" "$run" -o "$tmp/x.svg"

# a status line for long work, on a terminal only (script(1) gives a pty)
script -qfec "'$pftrace' replay --synthetic chain=20 -r 30" /dev/null >"$tmp/tty.out" 2>&1
check "on a terminal: replay shows its passes, and clears the line before its report" \
	sh -c "grep -q \"\$(printf '\rreplay: pass 1 of 30')\" '$tmp/tty.out' && grep -q \"\$(printf '\r\033\\[K')\" '$tmp/tty.out' && grep -q 'per lookup' '$tmp/tty.out'"
script -qfec "'$pftrace' replay --synthetic chain=20 -r 30 -q" /dev/null >"$tmp/tty-q.out" 2>&1
check "on a terminal with -q: no status line" sh -c "! grep -q 'replay: pass' '$tmp/tty-q.out' && grep -q 'per lookup' '$tmp/tty-q.out'"
"$pftrace" replay --synthetic chain=20 -r 30 >"$tmp/pipe.out" 2>&1
check "into a pipe: no status line" sh -c "! grep -q 'replay: pass' '$tmp/pipe.out' && grep -q 'per lookup' '$tmp/pipe.out'"

# the man page: from docs/pftrace.8.scd and the tables, no warnings
man=$out/pftrace.8
check "pftrace(8) renders with MANWIDTH=80 man --warnings, without a warning" \
	sh -c "[ -s '$man' ] && [ -z \"\$(MANWIDTH=80 man --warnings -l '$man' 2>&1 >/dev/null)\" ]"
MANWIDTH=80 man -l "$man" >"$tmp/man.txt" 2>/dev/null
missing=$(cut -d' ' -f2 "$tmp/options" | sort -u | while read -r o; do grep -q -- "$o" "$tmp/man.txt" || echo "$o"; done)
check "pftrace(8) documents every option of every command${missing:+ (missing: $missing)}" [ -z "$missing" ]
check "pftrace(8) has a section for every command" \
	sh -c "for c in features list report diff merge replay sites snapshot whatif plot; do grep -q \"^   pftrace \$c\$\" '$tmp/man.txt' || exit 1; done"

# bash completion: the generated script, driven as bash would
complete_words() { # WORD...: what completing the last word offers
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pftrace; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$out/pftrace.bash" "$@"
}
check "bash completion: the script parses" bash -n "$out/pftrace.bash"
check "bash completion: 'pftrace wh' offers whatif" sh -c "[ \"\$(bash -c '. \"$out/pftrace.bash\"; COMP_WORDS=(pftrace wh); COMP_CWORD=1; _pftrace; echo \${COMPREPLY[*]}')\" = whatif ]"
complete_words pftrace -f avc_lo >"$tmp/c1"
check "bash completion: 'pftrace -f avc_lo' offers avc_lookup" grep -qx avc_lookup "$tmp/c1"
complete_words pftrace whatif --bi >"$tmp/c2"
check "bash completion: 'pftrace whatif --bi' offers --bits" grep -qx -- --bits "$tmp/c2"
complete_words pftrace --by c >"$tmp/c3"
check "bash completion: 'pftrace --by c' offers comm and cgroup" sh -c "grep -qx comm '$tmp/c3' && grep -qx cgroup '$tmp/c3'"
if command -v zsh >/dev/null; then
	check "zsh completion: the script parses (zsh -n), and names every command" \
		sh -c "zsh -n '$out/_pftrace' && for c in features list report diff merge replay sites snapshot whatif plot; do grep -qF \"'\$c:\" '$out/_pftrace' || exit 1; done"
else
	not_ok "zsh completion: zsh is not installed (make deps installs it)"
fi

# make install DESTDIR=...
make -s -C "$top" install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1
check "make install DESTDIR: exit 0" [ $? -eq 0 ]
for f in usr/bin/pftrace usr/share/man/man8/pftrace.8.gz usr/share/bash-completion/completions/pftrace \
	 usr/share/zsh/vendor-completions/_pftrace usr/share/doc/pftrace/copyright; do
	check "make install DESTDIR: lays out $f" [ -s "$tmp/root/$f" ]
done
check "make install DESTDIR: the installed binary runs" sh -c "'$tmp/root/usr/bin/pftrace' --version | grep -q '^pftrace $(cat "$top/VERSION")'"
check "the installed page is the built one" sh -c "gzip -dc '$tmp/root/usr/share/man/man8/pftrace.8.gz' | cmp -s - '$man'"

# The README and docs/*.md, as a reader who has never seen the project
# meets them. The linter prints one line per problem, tagged: link, a
# relative link (or #anchor, by GitHub's heading slugs) that does not
# resolve or leaves the repository; unlinked, a page of docs/ that the
# README does not link; history, this project's issue numbers or its
# rounds of development; outside, a path in the text that climbs (../)
# out of the repository or to nothing in it; runfile, a key of the run file's schema that
# docs/run-file.md does not name; sample, a block of output that starts
# "$ pftrace ..." on run files of docs/examples/ (no sudo) and is not
# what that command prints there now (a last line "..." ends a prefix).
doc_lint() { # TOP PFTRACE: one "TAG<tab>FILE:LINE: what" line per problem, "checked<tab>FILE" per file
	python3 - "$1" "$2" <<'PY'
import json, os, re, shlex, subprocess, sys

top = os.path.realpath(sys.argv[1])
pftrace = sys.argv[2]
examples = os.path.join(top, "docs/examples")
pages = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(top, "docs"))
                               if f.endswith(".md"))
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
HISTORY = [
    re.compile(r"\b(?:issues?|PR|pull requests?)\s+#?\d+", re.I),
    re.compile(r"(?<![\w&/#])#\d+\b"),
    re.compile(r"\b(?:this|last|next|previous|earlier|later|that|same|first|second|third|"
               r"fourth|fifth|final|\d+(?:st|nd|rd|th))\s+round\b", re.I),
    re.compile(r"\bround\s+\d+\b", re.I),
    re.compile(r"\brounds?\s+of\s+(?:development|work)\b", re.I),
]
UP_PATH = re.compile(r"(?<![\w./-])((?:\.\./)+[\w.-][\w./-]*)")

def lines_of(page):
    """(number, text, in_code_block) for each line of a page"""
    out, fenced = [], False
    with open(os.path.join(top, page), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                out.append((n, line, True))
            else:
                out.append((n, line, fenced))
    return out

def slug(heading):
    """GitHub's anchor for a heading: link text kept, markup and punctuation dropped"""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")

anchors = {}
def anchors_of(path):
    if path not in anchors:
        seen, found = {}, set()
        for _, line, code in lines_of(os.path.relpath(path, top)):
            if code:
                continue
            for m in re.finditer(r"""<a\s[^>]*(?:name|id)\s*=\s*["']([^"']+)["']""", line):
                found.add(m.group(1))
            h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                s = slug(h.group(1))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else "%s-%d" % (s, k))
        anchors[path] = found
    return anchors[path]

def check_sample(where, block):
    """a block whose first line runs pftrace on docs/examples/: its output, as printed there"""
    argv = shlex.split(block[0][2:])
    files = [a for a in argv if a.endswith(".json")]
    if not files or not all(os.path.isfile(os.path.join(examples, f)) for f in files):
        return
    shown = block[1:]
    prefix = bool(shown) and shown[-1] == "..."
    if prefix:
        shown = shown[:-1]
    out = subprocess.run([pftrace] + argv[1:], cwd=examples, capture_output=True, text=True)
    got = out.stdout.splitlines()
    if out.returncode != 0 or (got[:len(shown)] if prefix else got) != shown:
        print("sample\t%s: '%s' prints something else now" % (where, block[0]))
    print("sampled\t%s" % where)

def inside(path):
    return os.path.commonpath([top, os.path.realpath(path)]) == top

linked_from_readme = set()
for page in pages:
    here = os.path.dirname(os.path.join(top, page))
    block, start = None, 0
    for n, line, code in lines_of(page):
        where = "%s:%d" % (page, n)
        if FENCE.match(line):
            if block and block[0].startswith("$ pftrace "):
                check_sample("%s:%d" % (page, start), block)
            block, start = ([] if block is None else None), n + 1
        elif block is not None:
            block.append(line.rstrip("\n"))
        for rx in HISTORY:
            for m in rx.finditer(re.sub(r"\]\([^)]*\)", "]()", line)):
                print("history\t%s: '%s'" % (where, m.group(0)))
        for m in UP_PATH.finditer(line):
            path = m.group(1).rstrip(".")
            up = os.path.join(here, path)
            if not inside(up) or not os.path.exists(up):
                print("outside\t%s: '%s' names no file of the repository" % (where, path))
        if code:
            continue
        prose = CODE_SPAN.sub("", line)
        targets = [m.group(1) for m in LINK.finditer(prose)]
        m = REF_LINK.match(prose)
        if m:
            targets.append(m.group(1))
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue    # a URL: not this test's to fetch
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(here, path)) if path else os.path.join(top, page)
            if not inside(full):
                print("link\t%s: '%s' leaves the repository" % (where, target))
            elif not os.path.exists(full):
                print("link\t%s: '%s': no such file" % (where, target))
            elif anchor and full.endswith(".md") and anchor not in anchors_of(full):
                print("link\t%s: '%s': no heading or anchor '#%s' in %s" %
                      (where, target, anchor, os.path.relpath(full, top)))
            elif page == "README.md":
                linked_from_readme.add(os.path.relpath(full, top))
    print("checked\t%s" % page)

for page in pages[1:]:
    if page not in linked_from_readme:
        print("unlinked\t%s: no link to it in README.md" % page)

schema = json.load(open(os.path.join(top, "docs/run-file.schema.json")))
named = set()
for _, line, _ in lines_of("docs/run-file.md"):
    for m in CODE_SPAN.finditer(line):
        named.update(re.findall(r"[A-Za-z_]\w*", m.group(2)))
for part, props in (("run file", schema["properties"]),
                    ("targets[]", schema["$defs"]["target"]["properties"]),
                    ("snapshot", schema["$defs"]["snapshot"]["properties"]),
                    ("latency", schema["$defs"]["latency"]["properties"])):
    for key in props:
        if key not in named:
            print("runfile\tdocs/run-file.md: the %s key '%s' is not named" % (part, key))
PY
}
doc_lint "$top" "$pftrace" >"$tmp/doclint" 2>"$tmp/doclint.err"
check "the docs linter ran over README.md and every page of docs/, and ran the README's samples" \
	sh -c "[ ! -s '$tmp/doclint.err' ] && grep -qx 'checked	README.md' '$tmp/doclint' && [ \$(grep -c '^checked	docs/' '$tmp/doclint') -eq \$(ls '$top'/docs/*.md | wc -l) ] && grep -q '^sampled	README.md:' '$tmp/doclint'"
diag "$tmp/doclint.err"
for tag in link unlinked history outside runfile sample; do
	case $tag in
	link) what="every relative link and #anchor in README.md and docs/*.md resolves inside the repository" ;;
	unlinked) what="every page of docs/ is linked from README.md" ;;
	history) what="no issue numbers (issue 17, #17) and no rounds of development (this round, round 3) in README.md or docs/" ;;
	outside) what="every ../ path in README.md and docs/*.md names a file of the repository" ;;
	runfile) what="docs/run-file.md names every key of the run file, its targets, snapshots and latency in docs/run-file.schema.json" ;;
	sample) what="every sample of pftrace's output on docs/examples/ in README.md and docs/*.md is what it prints now" ;;
	esac
	awk -F'\t' -v t="$tag" '$1 == t { print $2 }' "$tmp/doclint" >"$tmp/doclint.$tag"
	check "$what" [ ! -s "$tmp/doclint.$tag" ]
	diag "$tmp/doclint.$tag"
done

# the README's size of the binary is the binary's, within 15%
check "README: the binary's size as stated (about N MB, M stripped) is within 15% of ./pftrace's" \
	sh -c "strip -o '$tmp/stripped' '$pftrace' && sed -n 's/.*one static binary (about \([0-9.]*\) MB, \([0-9.]*\) stripped).*/\1 \2/p' '$top/README.md' | awk -v a=\$(stat -c %s '$pftrace') -v b=\$(stat -c %s '$tmp/stripped') 'NF == 2 { n++; if (\$1 * 1e6 < a / 1.15 || \$1 * 1e6 > a * 1.15 || \$2 * 1e6 < b / 1.15 || \$2 * 1e6 > b * 1.15) exit 1 } END { exit !n }'"

check "LICENSE is the GPL, version 2, as the sources' SPDX lines say" \
	sh -c "grep -q 'GNU GENERAL PUBLIC LICENSE' '$top/LICENSE' && grep -q 'Version 2, June 1991' '$top/LICENSE'"
summary host
