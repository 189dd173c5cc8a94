#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A hostile trial of the programs, as an attacker and a clumsy user would try
# them: generators killed at random moments, readers answering while
# writers commit, bad input, damaged and crafted search checkpoints and killed
# ranks of slidedb-lookup-mpi, forged exports, and slidedb-serve under attack
# (memory, CPU left burning, stopping, 413s, idle sockets, invalid UTF-8:
# bench/hostile_serve.py).
# Prints tables for bench/RESULTS.md, and the machine.
#   bench/hostile.sh [BUILD_DIR]     (Release build; about 10 minutes)
# TRIALS=serve runs only the server's; SERVE=... and LOOKUP=... try other
# programs there (a build from before a fix: the attacks use only options
# every version has).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/data_dir.sh
build=${1:-build-bench}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSLIDEDB_TESTS=OFF >/dev/null
cmake --build "$build" -j2 >/dev/null
gen=$build/slidedb-gen
lookup=$build/slidedb-lookup
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

machine() {
	echo "Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores," \
		"$(free -g | awk '/^Mem:/ { print $2 }') GiB, $(. /etc/os-release && echo "$PRETTY_NAME")," \
		"Linux $(uname -r), libmicrohttpd $(pkg-config --modversion libmicrohttpd)."
}

# 4. slidedb-serve under attack: a database of full 3x3 tables (4x4 by search).
serve_trials() {
	local db=$work/serve.lmdb
	"$gen" full 3x3 --db "$db" -q
	echo "## slidedb-serve under attack"
	echo
	echo "\`bench/hostile.sh\` (\`bench/hostile_serve.py\`) on ${SERVE:-$build/slidedb-serve}," \
		"with its defaults unless said, each attack on a fresh server over loopback; memory is"
	echo "the server's resident set (/proc/PID/status: VmRSS at rest, VmHWM at its peak)."
	echo
	python3 bench/hostile_serve.py "${SERVE:-$build/slidedb-serve}" "${LOOKUP:-$lookup}" "$db"
	echo
	machine
}
if [ "${TRIALS:-all}" = serve ]; then
	serve_trials
	exit 0
fi

# 1. Kills: a database with 2x4 tables; 3x3 built over it and killed with
#    SIGKILL after a random delay. Afterwards the database must verify and
#    answer, holding the 2x4 tables and either all or none of the 3x3 ones.
kills=60 survived=0
db=$work/kill.lmdb
"$gen" full 2x4 --db "$db" -q
for i in $(seq $kills); do
	"$gen" full 3x3 --db "$db" -q --threads 2 &
	pid=$!
	sleep "0.0$((RANDOM % 60))"
	kill -9 $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	tables=$("$lookup" --db "$db" info --json | tr ',' '\n' | awk '/"name":"full-3x3/ { n++ } END { print n + 0 }')
	if "$lookup" --db "$db" verify >/dev/null && { [ "$tables" = 0 ] || [ "$tables" = 3 ]; } &&
	   [ "$("$lookup" --db "$db" --only distance 1 2 3 4 5 6 0 7)" = 1 ]; then
		survived=$((survived + 1))
	fi
	"$gen" rm full-3x3 --db "$db" -q 2>/dev/null || true
done

# 2. Readers during commits: 3x3 queries answered by readers started one
#    after another while a writer rebuilds the 3x3 tables again and again;
#    every answer must equal the answer of a quiet database.
db=$work/busy.lmdb
"$gen" full 3x3 --db "$db" -q
printf '8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n1 2 3 4 5 6 7 0 8\n2 3 4 1 5 0 7 6 8\n' >"$work/q"
"$lookup" --db "$db" <"$work/q" >"$work/want"
( for i in $(seq 40); do "$gen" full 3x3 --db "$db" -q; done ) &
writer=$!
readers=0 wrong=0
while kill -0 $writer 2>/dev/null; do
	"$lookup" --db "$db" <"$work/q" >"$work/got" 2>/dev/null || true
	cmp -s "$work/want" "$work/got" || wrong=$((wrong + 1))
	readers=$((readers + 1))
done
wait $writer

# 3. Bad input: every line of a file of hand-made bad queries gets exactly one
#    error line, and random bytes never crash the reader.
bad=$work/bad
{
	printf '1 2 3 4 5 6 7 8 8\n1 2 3\n[[1,2,7],[4,3],[6,5,8,0]]\n99999999999999999999x2\n'
	printf '1 2 3 ; 4 5 6 ; 7 8 0\n%%s\n\x01\x02\n[[[[[[[[[[1]]]]]]]]]]\nx x x x x x x x x\n'
	printf '1 2 3 4 5 6 7 0 8 ; 1 2 3 4 5 6 7 8\n0 1 2 3 4 5 6 7 99\n))\n'
} >"$bad"
nbad=$(wc -l <"$bad")
nout=$("$lookup" --db "$db" <"$bad" 2>/dev/null | grep -c '^error: ' || true)
head -c 4000000 /dev/urandom >"$work/random"
set +e
"$lookup" --db "$db" <"$work/random" >/dev/null 2>&1
random_rc=$?
set -e

# One byte of a copy of the database $1 changed at a random place, $3 times:
# the function named $2 (answers for a database file, on stdout) must give,
# line by line, the clean file's answer or an error, and never crash. Sets
# d_tried, d_wrong, d_crashed and d_seen (runs that reported the damage).
damage_trials() {
	local clean=$1 ask=$2 runs=$3 size off byte rc bad
	"$ask" "$clean" >"$work/want"
	size=$(stat -c %s "$clean")
	d_tried=0 d_wrong=0 d_crashed=0 d_seen=0
	set +e
	for _ in $(seq "$runs"); do
		cp "$clean" "$work/dmg.lmdb"
		rm -f "$work/dmg.lmdb-lock"
		off=$(( (RANDOM * 32768 + RANDOM) % size ))
		byte=$(od -An -tu1 -j "$off" -N1 "$clean" | tr -d ' ')
		printf "\\x$(printf %02x $(( byte ^ (1 + RANDOM % 255) )))" |
			dd of="$work/dmg.lmdb" bs=1 seek="$off" conv=notrunc status=none
		"$ask" "$work/dmg.lmdb" >"$work/got"
		rc=$?
		d_tried=$((d_tried + 1))
		[ "$rc" -lt 128 ] || d_crashed=$((d_crashed + 1))
		# a line that is neither the clean answer nor an error is a wrong answer
		bad=$(paste -d '\n' "$work/got" "$work/want" 2>/dev/null | paste - - -d '\t' |
			awk -F '\t' '$1 != "" && $1 != $2 && $1 !~ /"error"/' | wc -l)
		[ "$bad" = 0 ] || d_wrong=$((d_wrong + 1))
		! grep -q '"error"' "$work/got" || d_seen=$((d_seen + 1))
	done
	set -e
}

# 5. Damaged bytes (issue #19): one byte of a 2-bit 3x3 table stored in 4 KiB
#    chunks changed at a random place of the file (table data, B-tree and meta
#    pages alike); 2000 queries asking distances, moves, every best move and
#    the count of optimal solutions must each get the clean file's answer or
#    an error, never another answer, and no program may crash.
clean=$work/clean.lmdb
SLIDEDB_CHUNK_BYTES=4096 "$gen" full 3x3 --bits 2 --goal "0 1 2 3 4 5 6 7 8" --db "$clean" -q
"$lookup" --db "$clean" random --goal "0 1 2 3 4 5 6 7 8" --count 2000 --seed 1 |
	sed 's/$/ ; 0 1 2 3 4 5 6 7 8/' >"$work/dq"
ask() { "$lookup" --db "$1" --json --all-best --solutions <"$work/dq" 2>/dev/null; }
damage_trials "$clean" ask 300
damaged=$d_tried damage_wrong=$d_wrong damage_crashed=$d_crashed damage_seen=$d_seen

# 8. Damaged pattern sets (issue #21): one byte of a file holding a 4x4 5-5-5
#    set changed at a random place; 20 of Korf's 15-puzzles solved on it with
#    the set's verify split over threads (SLIDEDB_VERIFY_BYTES: a thread per
#    4 KiB run) and run beside the batch's searches in slices of 16 KiB
#    (SLIDEDB_VERIFY_SLICE; the batch waits for it only before its answers)
#    must each get the clean answer or an error, never another (a damaged
#    bound would give a longer or wrong sequence), and no crash.
pclean=$work/pclean.lmdb
"$gen" pdb 4x4 --partition 5-5-5 --goal "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" \
	--db "$pclean" -q
grep -v '^#' "$data/korf100.txt" | head -20 |
	awk '{ s = $1; for (i = 2; i <= 16; i++) s = s " " $i; print s " ; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" }' \
	>"$work/pq"
pask() { SLIDEDB_VERIFY_BYTES=4096 SLIDEDB_VERIFY_SLICE=16384 "$lookup" --db "$1" -t 1 --json \
	<"$work/pq" 2>/dev/null |
	sed 's/"nodes":[0-9]*,//'; }
damage_trials "$pclean" pask 100
pdamaged=$d_tried pwrong=$d_wrong pcrashed=$d_crashed pseen=$d_seen

# 6. Two writers at once (issue #21): pattern sets rebuilt with more and fewer
#    groups (deleting groups in the transaction that writes the others) in two
#    processes while readers open the file and verify it; every open must
#    find the file whole (each commit grows it to LMDB's last page, and must
#    never cut back a file the other writer grew), every verify pass.
db=$work/two.lmdb
"$gen" full 3x3 --db "$db" -q
two_writers() {
	for i in $(seq 15); do
		"$gen" pdb 3x3 --partition "$1" --name "$2" --db "$db" -q
		"$gen" pdb 3x3 --partition "$3" --name "$2" --db "$db" -q
	done
}
two_writers 1,2,3,4/5,6,7,8 set-a 1,2/3,4/5,6/7,8 &
w1=$!
two_writers 1,2,5,6/3,4,7,8 set-b 1,5/2,6/3,7/4,8 &
w2=$!
opens=0 open_failed=0
while kill -0 $w1 2>/dev/null || kill -0 $w2 2>/dev/null; do
	"$lookup" verify --db "$db" >/dev/null 2>&1 || open_failed=$((open_failed + 1))
	opens=$((opens + 1))
done
wait $w1 $w2
final_ok=$("$lookup" verify --db "$db" >/dev/null 2>&1 && echo 1 || echo 0)

# 7. slidedb-lookup-mpi (issue #22): a search's checkpoint with one byte
#    changed at a random place (or cut short) must be refused with its name,
#    never resumed into another answer; and a rank killed (SIGKILL) at a
#    random moment of a 5x5 search must end the run with no answer, or (the
#    kill after rank 0 wrote it) the clean answer: never a partial or other one.
#    Issue #35: a checkpoint crafted as a person would, its CRC-32s recomputed
#    (the bound raised past the answer with no cut, or the answer's bound with
#    every subtree of its cut marked done) must be refused, never resumed into
#    a longer answer. The trial seals with a key of its own, not the user's.
mpi_tried=0 mpi_refused=0 mpi_wrong=0 kill_tried=0 kill_ok=0
crafted_tried=0 crafted_refused=0 crafted_wrong=0
# A checkpoint crafted: FILE bound B (no cut) | FILE cut B DEPTH N (all N
# subtrees done, the next bound B + 2); both CRC-32s recomputed. The header ends with bound, depth,
# n, next bound (int32), a spare word, the nodes, the seal (format 3 on, 32
# bytes) and the CRCs of the bitmap and of the header (with itself 0).
craft() {
	python3 - "$@" <<'PY'
import struct, sys, zlib
path, how, bound = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = bytearray(open(path, 'rb').read())
version, h = struct.unpack_from('<II', d, 8)
at = h - 8 - (32 if version >= 3 else 0) - 8 - 4 - 16
depth, n, nxt = (int(sys.argv[4]), int(sys.argv[5]), bound + 2) if how == 'cut' else (0, 0, 2**31 - 1)
struct.pack_into('<iiii', d, at, bound, depth, n, nxt)
d[h:] = b'\xff' * ((n + 7) // 8)
struct.pack_into('<I', d, h - 8, zlib.crc32(bytes(d[h:])))
struct.pack_into('<I', d, h - 4, 0)
struct.pack_into('<I', d, h - 4, zlib.crc32(bytes(d[:h])))
open(path, 'wb').write(d)
PY
}
if [ -x "$build/slidedb-lookup-mpi" ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export SLIDEDB_KEY_FILE=$work/checkpoint.key
	mpi="mpirun -n 2 --oversubscribe $build/slidedb-lookup-mpi"
	db=$work/five.lmdb
	"$gen" pdb 5x5 --partition 1,2,3,6,7/4,5,8,9,10/11,12,16,17,21/13,14,15,19,20/18,22,23,24 \
		--db "$db" -q
	far="1 8 11 2 4 6 22 7 0 12 16 10 9 14 3 17 13 19 15 24 21 23 20 5 18"
	clean=$("$lookup" --db "$db" "$far")
	ck=$work/ck
	for i in $(seq 40); do
		rm -rf "$ck" && mkdir "$ck"
		SLIDEDB_SPLIT_NODES=0 $mpi --db "$db" --max-nodes 60000 --checkpoint "$ck" \
			--checkpoint-every 0 "$far" >/dev/null 2>&1 || true
		f=$(ls "$ck"/*.ckpt)
		size=$(stat -c %s "$f")
		if [ $((i % 8)) = 0 ]; then
			truncate -s $((RANDOM % size)) "$f"
		else
			at=$((RANDOM % size))
			printf "$(printf '\\%03o' $((1 + RANDOM % 255)))" |
				dd of="$f" bs=1 seek=$at count=1 conv=notrunc 2>/dev/null
		fi
		out=$(SLIDEDB_SPLIT_NODES=0 $mpi --db "$db" --checkpoint "$ck" "$far" 2>"$work/mpi.err") ||
			true
		mpi_tried=$((mpi_tried + 1))
		if grep -q "checkpoint '$f'" "$work/mpi.err"; then
			mpi_refused=$((mpi_refused + 1))
		elif [ -n "$out" ] && [ "$out" != "$clean" ]; then
			mpi_wrong=$((mpi_wrong + 1))
		fi
	done
	# the answer's bound and its cut, from a clean run's statistics
	distance=$(echo "$clean" | awk '{ print $2 }')
	SLIDEDB_SPLIT_NODES=0 SLIDEDB_MPI_STATS=$work/stats $mpi --db "$db" "$far" >/dev/null 2>&1
	read -r cut_depth cut_n < <(awk -v b="$distance" '$2 == b { print $3, $4 }' "$work/stats")
	for i in $(seq 30); do
		rm -rf "$ck" && mkdir "$ck"
		SLIDEDB_SPLIT_NODES=0 $mpi --db "$db" --max-nodes 60000 --checkpoint "$ck" \
			--checkpoint-every 0 "$far" >/dev/null 2>&1 || true
		f=$(ls "$ck"/*.ckpt)
		case $((i % 3)) in
		0) craft "$f" bound $((distance + 2)) ;;
		1) craft "$f" bound $((distance + 2 * (1 + RANDOM % 5))) ;;
		2) craft "$f" cut "$distance" "$cut_depth" "$cut_n" ;;
		esac
		out=$(SLIDEDB_SPLIT_NODES=0 $mpi --db "$db" --checkpoint "$ck" "$far" 2>"$work/mpi.err") ||
			true
		crafted_tried=$((crafted_tried + 1))
		if grep -q "checkpoint '$f': not sealed by this user's key" "$work/mpi.err"; then
			crafted_refused=$((crafted_refused + 1))
		elif [ "${out#distance}" != "$out" ] && [ "$out" != "$clean" ]; then
			crafted_wrong=$((crafted_wrong + 1))
		fi
	done
	for i in $(seq 20); do
		SLIDEDB_SPLIT_NODES=0 $mpi --db "$db" "$far" >"$work/kill.out" 2>/dev/null &
		run=$!
		sleep "0.$((RANDOM % 10))"
		victim=$(pgrep -f "^$build/slidedb-lookup-mpi --db $db" | shuf -n 1 || true)   # a rank, not mpirun
		[ -z "$victim" ] || kill -KILL "$victim" 2>/dev/null || true
		rc=0
		wait $run || rc=$?
		kill_tried=$((kill_tried + 1))
		out=$(cat "$work/kill.out")
		# (killed after rank 0 wrote the answer: the clean answer, then a failed run)
		if { [ $rc != 0 ] && [ -z "$out" ]; } || [ "$out" = "$clean" ]; then
			kill_ok=$((kill_ok + 1))
		fi
	done
fi

# 8. Compacts (sdb_db_compact writes and syncs its own copy): killed (SIGKILL) at
#    a random moment, or unable to write the copy whole (a file-size limit:
#    the write fails with EFBIG). Afterwards the database must verify and
#    answer as before; a failed compact must say so and leave no copy, and
#    the next compact removes the copies the killed ones left.
db=$work/compact.lmdb
"$gen" full 3x3 --db "$db" -q
"$gen" full 2x5 --db "$db" -q
"$gen" rm --db "$db" full-2x5-b0 -q
want=$("$lookup" --db "$db" "1 2 3 0 8 4 7 6 5")
compact_kills=0 compact_kills_ok=0 compact_full=0 compact_full_ok=0
for i in $(seq 20); do
	"$gen" compact --db "$db" -q &
	pid=$!
	sleep "0.0$(printf %04d $((RANDOM % 300)))"   # 0-30 ms: a compact here takes about 14
	kill -9 $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	compact_kills=$((compact_kills + 1))
	if "$lookup" --db "$db" verify >/dev/null 2>&1 && [ "$("$lookup" --db "$db" "1 2 3 0 8 4 7 6 5")" = "$want" ]; then
		compact_kills_ok=$((compact_kills_ok + 1))
	fi
done
copies() { find "$work" -maxdepth 1 -name "compact.lmdb.compact-*" | wc -l; }
litter=$(copies)
if "$gen" compact --db "$db" -q; then swept=$(copies); else swept=failed; fi
for i in $(seq 5); do
	rc=0
	(trap '' XFSZ; ulimit -f $((256 + RANDOM % 2048)); exec "$gen" compact --db "$db" -q) \
		2>"$work/compact.err" || rc=$?
	compact_full=$((compact_full + 1))
	if [ $rc = 1 ] && grep -q compact "$work/compact.err" && ! ls "$db".compact-* >/dev/null 2>&1 &&
		"$lookup" --db "$db" verify >/dev/null 2>&1 &&
		[ "$("$lookup" --db "$db" "1 2 3 0 8 4 7 6 5")" = "$want" ]; then
		compact_full_ok=$((compact_full_ok + 1))
	fi
done

# 9. Crafted exports (issue #35): exports of the 3x3 tables and a two-bit 2x4 table, the same in
#    the multi-tile metric (issue #38), and of 3x3 sets in both blank modes, each forged by bench/forge_export (two entries of one table swapped,
#    the counts unchanged, every checksum remade, as a careful forger would) and imported into a
#    fresh database. Refused (exit 1, nothing stored), or stored: then 200 queries must get the
#    genuine distances, or the forgery changed answers (wrong).
forge_tried=0 forge_refused=0 forge_stored=0 forge_wrong=0
fsrc=$work/forge-full.lmdb ssrc=$work/forge-sets.lmdb
"$gen" full 3x3 --db "$fsrc" -q
"$gen" full 2x4 --bits 2 --db "$fsrc" -q
msrc=$work/forge-mtm.lmdb
"$gen" full 3x3 --metric mtm --db "$msrc" -q
"$gen" full 2x4 --metric mtm --bits 2 --db "$msrc" -q
"$gen" export full-3x3-mtm full-2x4-mtm --db "$msrc" -o "$work/forge-mtm.gz" -q
"$gen" pdb 3x3 --partition 1,2,3,4/5,6,7,8 --db "$ssrc" -q
"$gen" pdb 3x3 --partition 1,2,3/4,5,6/7,8 --blank min --db "$ssrc" -q
"$gen" export full-3x3 full-2x4 --db "$fsrc" -o "$work/forge-full.gz" -q
sets=$("$lookup" --db "$ssrc" info --json | grep -o '"set":"[^"]*"' | cut -d'"' -f4 | sort -u)
"$gen" export $sets --db "$ssrc" -o "$work/forge-sets.gz" -q
{ "$lookup" --db "$fsrc" random --count 100 --seed 35
  "$lookup" --db "$fsrc" random --size 2x4 --count 100 --seed 35; } >"$work/fq"
"$lookup" --db "$fsrc" --only distance <"$work/fq" >"$work/fwant"
"$lookup" --db "$msrc" -m mtm --only distance <"$work/fq" >"$work/mwant"
head -100 "$work/fq" >"$work/sq"
head -100 "$work/fwant" >"$work/swant"
forge_tables=$({ "$lookup" --db "$fsrc" info --json; "$lookup" --db "$ssrc" info --json
	"$lookup" --db "$msrc" info --json; } | grep -o '"name":"[^"]*"' | cut -d'"' -f4)
set +e
for i in $(seq 80); do
	table=$(echo "$forge_tables" | sed -n "$(( (i - 1) % $(echo "$forge_tables" | wc -l) + 1 ))p")
	metric=stm
	case $table in
	full-*-mtm-*) src=$msrc gz=$work/forge-mtm.gz q=$work/fq want=$work/mwant metric=mtm ;;
	full-*) src=$fsrc gz=$work/forge-full.gz q=$work/fq want=$work/fwant ;;
	*) src=$ssrc gz=$work/forge-sets.gz q=$work/sq want=$work/swant ;;
	esac
	"$build/bench/forge_export" "$src" "$table" "$gz" "$work/forged.gz" "$i" >/dev/null || continue
	forge_tried=$((forge_tried + 1))
	rm -f "$work/imported.lmdb" "$work/imported.lmdb-lock"
	if "$gen" import "$work/forged.gz" --db "$work/imported.lmdb" -q 2>/dev/null; then
		forge_stored=$((forge_stored + 1))
		"$lookup" --db "$work/imported.lmdb" -m "$metric" --only distance <"$q" >"$work/fgot" \
			2>/dev/null
		cmp -s "$want" "$work/fgot" || forge_wrong=$((forge_wrong + 1))
	elif [ ! -e "$work/imported.lmdb" ]; then
		forge_refused=$((forge_refused + 1))
	fi
done
set -e

echo "| trial | tried | passed |"
echo "|---|---|---|"
echo "| \`slidedb-gen full 3x3\` killed (SIGKILL) at a random moment over a 2x4 database; then verify, all-or-none, an answer | $kills | $survived |"
echo "| readers answering 4 queries while a writer commits 40 rebuilds of the 3x3 tables; answers equal to a quiet database's | $readers readers | $((readers - wrong)) |"
echo "| hand-made bad query lines, one \`error:\` line each | $nbad | $nout |"
echo "| 4 MB of random bytes as queries, no crash (exit 1) | 1 | $([ $random_rc = 1 ] && echo 1 || echo "0 (exit $random_rc)") |"
echo "| two writers rebuilding pattern sets with more and fewer groups (30 commits each) while readers open and verify the file | $opens opens, then 1 final verify | $((opens - open_failed)), final $final_ok |"
echo "| one byte of a 2-bit chunked 3x3 file changed at random; 2000 queries with best moves and counts: each the clean answer or an error, no crash | $damaged | $((damaged - damage_wrong - damage_crashed)) (wrong: $damage_wrong, crashed: $damage_crashed; damage reported in $damage_seen) |"
echo "| one byte of a file holding a 4x4 5-5-5 set changed at random; 20 of Korf's 15-puzzles solved with the set's verify split over threads: each the clean answer or an error, no crash | $pdamaged | $((pdamaged - pwrong - pcrashed)) (wrong: $pwrong, crashed: $pcrashed; damage reported in $pseen) |"
echo "| an export of 3x3 tables, a two-bit 2x4 table, both in MTM too, or 3x3 sets (region and min) with two entries of one table swapped and every checksum remade (\`bench/forge_export\`), imported: refused with nothing stored, never stored with other answers | $forge_tried | $forge_refused refused (stored: $forge_stored, of which answering wrong: $forge_wrong) |"
echo "| \`slidedb-gen compact\` killed (SIGKILL) at a random moment; then verify and the same answer | $compact_kills | $compact_kills_ok |"
echo "| the next \`slidedb-gen compact\` after them: copies of killed compacts left before, after | 1 | $litter, $swept |"
echo "| \`slidedb-gen compact\` whose copy cannot be written whole (a file-size limit): exit 1 naming it, no copy left, verify and the same answer | $compact_full | $compact_full_ok |"
[ "$mpi_tried" = 0 ] ||
	echo "| a search checkpoint with one byte changed at random (or cut short), resumed on 2 ranks: refused with its name, never another answer | $mpi_tried | $((mpi_tried - mpi_wrong)) (refused: $mpi_refused, wrong: $mpi_wrong) |"
[ "$crafted_tried" = 0 ] ||
	echo "| a search checkpoint crafted, its CRC-32s recomputed (bound raised past the answer with no cut, or the answer's bound with every subtree marked done), resumed on 2 ranks: refused as not sealed by this user's key, never another answer | $crafted_tried | $((crafted_tried - crafted_wrong)) (refused: $crafted_refused, wrong: $crafted_wrong) |"
[ "$kill_tried" = 0 ] ||
	echo "| a rank of a 2-rank 5x5 search killed (SIGKILL) at a random moment: no answer and a failed run, or the clean answer (the kill after it was written), never another | $kill_tried | $kill_ok |"
echo
serve_trials
