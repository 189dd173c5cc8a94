#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No table and no commit is lost, whatever opens, reads or writes the file
# during a compact (issue #19, item 1): `slidedb-gen compact` is raced, at
# many delays, against a long reader (an open `slidedb-lookup` on a pipe), a
# writer (`slidedb-gen full`), one-shot queries and a server started during
# the compact. SLIDEDB_COMPACT_PAUSE holds the compact between its steps (the
# copy, the rename) so that every delay lands in a known phase.
#   tests/store/compact_race.sh GEN LOOKUP [SERVE] SCRATCH
set -euo pipefail
gen=$1 lookup=$2 serve=${3:-} scratch=$4
rm -rf "$scratch"
mkdir -p "$scratch"
db=$scratch/race.lmdb
fail() { echo "compact race: $*" >&2; exit 1; }
srv=
# (a server left behind would hold ctest's pipe open: the run would hang)
trap '[ -z "$srv" ] || kill "$srv" 2>/dev/null || true' EXIT

# The tables of the start and what one query answers from each.
build() {
	rm -f "$db" "$db-lock"
	"$gen" full 2x5 --db "$db" -q
	"$gen" full 2x5 --db "$db" -q       # again: free pages for compact to give back
	"$gen" full 3x3 --goal "1 2 3 4 0 5 6 7 8" --db "$db" -q
}
tables() { "$lookup" --db "$db" info --json | grep -o '"name":"[^"]*"' | sort | tr '\n' ' '; }
answer() { "$lookup" --db "$db" --size "$1" "$2"; }

port=$((21000 + RANDOM % 20000))
for delay in 0 0.05 0.15 0.3 0.45 0.6 0.75 0.9; do
	build
	before=$(tables)
	SLIDEDB_COMPACT_PAUSE=0.8 "$gen" compact --db "$db" >"$scratch/compact.out" \
		2>"$scratch/compact.err" &
	compact=$!
	sleep "$delay"
	# a long reader: open during the compact, asked after it
	mkfifo "$scratch/ask"
	"$lookup" --db "$db" <"$scratch/ask" >"$scratch/reader.out" 2>&1 &
	reader=$!
	exec 7>"$scratch/ask"
	# a writer and a one-shot query during the compact
	"$gen" full 2x3 --db "$db" -q 7>&- &   # (fd 7 is the reader's pipe: keep it theirs)
	writer=$!
	q=$(answer 2x5 "1 2 3 4 5 6 7 8 0 9")
	[ "$q" = "distance 1  best r  moves r" ] || fail "delay $delay: a query answered '$q'"
	srv=
	if [ -n "$serve" ]; then
		# (a port another test took between our pick and the bind: the next)
		for _ in 1 2 3 4 5; do
			port=$((port + 1))
			"$serve" --db "$db" --listen "127.0.0.1:$port" -q 7>&- 2>"$scratch/serve.err" &
			srv=$!
			sleep 0.05
			kill -0 "$srv" 2>/dev/null || ! grep -q "cannot listen" "$scratch/serve.err" ||
				continue
			break
		done
	fi
	wait $writer || fail "delay $delay: the writer failed"
	if ! wait $compact; then
		grep -q "in use by another program" "$scratch/compact.err" ||
			fail "delay $delay: compact failed: $(cat "$scratch/compact.err")"
	fi
	echo "1 2 3 4 0 5 6 7 8 ; 1 2 3 4 0 5 6 7 8" >&7
	exec 7>&-
	wait $reader || fail "delay $delay: the reader failed: $(cat "$scratch/reader.out")"
	grep -q "^distance 0" "$scratch/reader.out" ||
		fail "delay $delay: the reader answered '$(cat "$scratch/reader.out")'"
	rm -f "$scratch/ask"
	after=$(tables)
	for t in $before full-2x3-b0 full-2x3-b2; do
		t=${t#\"name\":}
		case "$after" in *"$t"*) ;; *) fail "delay $delay: table $t lost (now: $after)";; esac
	done
	# a commit after the compact lands, and everything is intact
	"$gen" full 2x2 --db "$db" -q
	case "$(tables)" in *full-2x2-b0*) ;; *) fail "delay $delay: a later commit was lost";; esac
	"$lookup" --db "$db" verify >/dev/null || fail "delay $delay: verify failed after the race"
	if [ -n "$srv" ]; then
		body=
		for _ in $(seq 100); do
			body=$(curl -s "http://127.0.0.1:$port/v1/solve?start=1%202%200%203&size=2x2" || true)
			case "$body" in *'"distance":1'*) break;; esac
			sleep 0.1
		done
		case "$body" in *'"distance":1'*) ;;
			*) fail "delay $delay: the server does not answer from the new file: $body";; esac
		kill -TERM "$srv"
		wait "$srv" || true
		srv=
	fi
	echo "delay $delay: $(head -c 60 "$scratch/compact.out" "$scratch/compact.err" | tr '\n' ' ')"
done
echo "compact race: no table and no commit lost at any delay"
