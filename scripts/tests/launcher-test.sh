#!/usr/bin/env bash
# Tests of scripts/pocache's command line: exit codes and messages for good and bad
# input. Run by `scripts/pocache test` after the Maven suite (so the build exists).
set -uo pipefail

POCACHE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/pocache"
failures=0

# expect <exit code> <text the output must contain> <args...>
expect() {
  local code=$1 text=$2
  shift 2
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc -ne $code ]]; then
    echo "FAIL: '$*' exited $rc, expected $code; output: $out"; failures=$((failures + 1))
  elif [[ "$out" != *"$text"* ]]; then
    echo "FAIL: '$*' did not print '$text'; output: $out"; failures=$((failures + 1))
  else
    echo "ok: '$*' -> $rc"
  fi
}

# The measured numbers in README.md and docs/ agree with their JSON, and a changed JSON
# value is caught: a copy of the pages and results with one ratio changed fails the check.
HOME_DIR="$(dirname "$(dirname "$POCACHE")")"
expect 0 "agree with their JSON" python3 "$HOME_DIR/scripts/lib/docnumbers.py" --check
copy=$(mktemp -d)
cp -r "$HOME_DIR/README.md" "$HOME_DIR/docs" "$copy/"
python3 - "$copy/docs/results/cluster/mapreduce.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["rows"][0]["ratio_straggler"] += 0.1
json.dump(d, open(sys.argv[1], "w"))
PY
expect 1 "cluster/mapreduce.json differs" python3 "$HOME_DIR/scripts/lib/docnumbers.py" --check --root "$copy"
rm -rf "$copy"

expect 0 "Usage: pocache <command>" "$POCACHE" help
expect 2 "Usage: pocache <command>" "$POCACHE"
expect 2 "unknown command 'frobnicate'" "$POCACHE" frobnicate
expect 2 "test takes no options" "$POCACHE" test --fast
expect 2 "unknown option --bogus" "$POCACHE" demo --bogus
expect 2 "--k must be in [2, 32], got 1" "$POCACHE" demo --k 1
expect 0 "Usage: pocache demo" "$POCACHE" demo --help
expect 2 "bench needs a target: coder, redis, manager, readers, soak, demo or read-cpu" "$POCACHE" bench
expect 2 "bench needs a target: coder, redis, manager, readers, soak, demo or read-cpu" "$POCACHE" bench redis-cluster
expect 2 "unknown option --fast" "$POCACHE" bench redis --fast
expect 2 "unknown option --bogus" "$POCACHE" bench coder --bogus
expect 2 "--codes entries must be k:m" "$POCACHE" bench coder --codes 4:9
expect 0 "Usage: pocache bench coder" "$POCACHE" bench coder --help
expect 2 "bench demo: --runs must be a positive integer, got '0'" "$POCACHE" bench demo --runs 0
expect 1 "bench read-cpu: --runs must be a positive integer, got '0'" "$POCACHE" bench read-cpu --runs 0
expect 0 "client CPU (the reading" "$POCACHE" bench read-cpu --help
expect 1 "bench read-cpu: --phases takes none and/or straggler, got 'slow'" "$POCACHE" bench read-cpu --phases none,slow
expect 2 "Usage: pocache checknative [-a]" "$POCACHE" checknative --bogus
expect 0 "isal:" "$POCACHE" checknative
expect 2 "Usage: pocache admin" "$POCACHE" admin
expect 2 "bad command -evict" "$POCACHE" admin -evict
expect 2 "bad command -ls" "$POCACHE" admin -ls /a /b
expect 1 "(Manager at 127.0.0.1:1)" "$POCACHE" admin -D dfs.pocache.manager.address=127.0.0.1:1 -stragglers
expect 1 "(Manager at 127.0.0.1:1)" "$POCACHE" admin -D dfs.pocache.manager.address=127.0.0.1:1 -report
expect 2 "Usage: pocache manager" "$POCACHE" manager --bogus
expect 1 "dfs.pocache.enabled is false" "$POCACHE" manager -D dfs.pocache.enabled=false
expect 2 "ps must be a probability in [0, 1], got 2.0" "$POCACHE" model --ps 2 --trials 0
expect 0 "parity-only" "$POCACHE" model --trials 1000
expect 2 "unknown experiment 'exp99'" "$POCACHE" simulate --experiment exp99
# experiment alternatives checks its options before it touches a cluster.
expect 1 "unknown layout 'rep2'" "$POCACHE" experiment alternatives --layouts rep1,rep2
expect 1 "unknown mode 'hedged'" "$POCACHE" experiment alternatives --modes stock,hedged
expect 1 "unknown job 'grep'" "$POCACHE" experiment alternatives --jobs grep
expect 1 "the SQL jobs run in the modes stock, slownode, pocache only" "$POCACHE" experiment alternatives --jobs sql-agg --modes speculation
expect 1 "--repeats must be a positive integer, got '0'" "$POCACHE" experiment alternatives --repeats 0
expect 1 "rs-6-3 needs at least 9 DataNodes, got --datanodes 5" "$POCACHE" experiment alternatives --datanodes 5
expect 1 "Hadoop 3.1 has none of the slow-node features" "$POCACHE" experiment alternatives --hadoop 3.1
expect 1 "--keep: no /nonexistent/alt.json to keep runs from" "$POCACHE" experiment alternatives --keep --json /nonexistent/alt.json
expect 1 "was made with other settings" "$POCACHE" experiment alternatives --keep --factor 3
# Another straggler speed for one mode of a job beside the modes kept at the old one.
expect 1 "rs-6-3 dfsio-read net straggler, mode pocache: factor 200 there, 3 now" "$POCACHE" experiment alternatives \
  --keep --factor 3 --input-mib 256 --block-mib 32 --repeats 3 --layouts rs-6-3 --jobs dfsio-read --modes stock
expect 2 "give exactly one of --experiment and --trace" "$POCACHE" simulate
expect 2 "unknown straggler detector 'sigma'" "$POCACHE" simulate --experiment exp11 --detector sigma

# A machine without a JDK or Maven: one line saying which.
empty=$(mktemp -d)
expect 1 "'java' is not on the PATH" env -u JAVA_HOME PATH="$empty:/usr/bin/env-does-not-exist" /bin/bash "$POCACHE" build
mkdir -p "$empty/bin"
for tool in java javac awk; do
  p=$(command -v "$tool") && ln -s "$p" "$empty/bin/$tool"
done
expect 1 "'mvn' is not on the PATH" env -u JAVA_HOME PATH="$empty/bin" /bin/bash "$POCACHE" build
rm -rf "$empty"

if [[ $failures -gt 0 ]]; then
  echo "$failures launcher test(s) failed"
  exit 1
fi
echo "launcher tests passed"
