#!/usr/bin/env bash
# The README's install section, as an operator follows it: `pocache cluster up` starts a
# Hadoop 3.1.4 NameNode, DataNodes (each in its own network namespace), YARN and a
# redis-server as separate processes, configured by XML files only; then POCache must be
# on everywhere, serve reads, survive stragglers of both kinds, and run a MapReduce job.
# Then an HA pair with a failover, and federation on Hadoop 3.4.1 servers.
# Run by `scripts/pocache test` after the Maven suite. Needs root (network namespaces), ip,
# tc and a free port 9000; without them it fails and says what is missing, unless the caller
# asked to skip it by name (POCACHE_SKIP=cluster).
set -uo pipefail

HOME_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
POCACHE="$HOME_DIR/scripts/pocache"
export POCACHE_CLUSTER_DIR="${POCACHE_CLUSTER_DIR:-$HOME_DIR/target/cluster-test}"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $* [${SECONDS}s]"; }

if [[ ",${POCACHE_SKIP:-}," == *,cluster,* ]]; then
  echo "skipped: the cluster test (POCACHE_SKIP=${POCACHE_SKIP})"
  exit 0
fi
missing=()
[[ $(id -u) -eq 0 ]] || missing+=("root (it runs as uid $(id -u); the DataNodes get network namespaces)")
command -v ip >/dev/null 2>&1 || missing+=("the ip command (Debian package iproute2)")
command -v tc >/dev/null 2>&1 || missing+=("the tc command (Debian package iproute2)")
if (exec 3<>/dev/tcp/127.0.0.1/9000) 2>/dev/null; then
  missing+=("a free port 9000 (something listens there: a cluster already up? 'scripts/pocache cluster down')")
fi
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "FAIL: the cluster test cannot run; it needs:"
  printf '  - %s\n' "${missing[@]}"
  echo "(POCACHE_SKIP=cluster skips it on purpose)"
  exit 1
fi

cleanup() { "$POCACHE" cluster down >/dev/null 2>&1 || true; }
trap cleanup EXIT
rm -rf "$POCACHE_CLUSTER_DIR/data" "$POCACHE_CLUSTER_DIR"/dn*

if ! "$POCACHE" cluster up --datanodes 3 --rate 64; then
  echo "FAIL: cluster up"; exit 1
fi
logs="$POCACHE_CLUSTER_DIR/logs"
lib="$POCACHE_CLUSTER_DIR/hadoop/share/hadoop/common/lib"
jar=$(ls "$lib"/hdfs-pocache-patch-*-dropin.jar)

# Nothing but XML files configures the daemons: the site files must have turned POCache on.
grep -q "POCache Manager listening" "$logs/namenode.log" && ok "the NameNode hosts the Manager (hdfs-site.xml)" \
  || fail "no Manager in the NameNode: $(grep -i pocache "$logs/namenode.log" | tail -3)"
for i in 1 2 3; do
  if grep -q "POCache DataNode plugin: service-rate heartbeats" "$logs/datanode$i.log" \
      && ! grep -q "stays idle" "$logs/datanode$i.log"; then
    ok "DataNode $i runs the POCache plugin (hdfs-site.xml)"
  else
    fail "DataNode $i's plugin did not start: $(grep -i pocache "$logs/datanode$i.log" | tail -3)"
  fi
done
grep -q "override final parameter" "$logs/namenode.log" && fail "Hadoop warned about overriding final parameters"

# README install step 5: hadoop jar <drop-in jar> -report / -stragglers / -checknative.
out=$("$POCACHE" cluster jar "$jar" -report 2>&1)
[[ "$out" == *"healthy"* ]] && ok "hadoop jar <jar> -report" || fail "-report: $out"
out=$("$POCACHE" cluster jar "$jar" -stragglers 2>&1)
[[ "$out" == *"Stragglers"* ]] && ok "hadoop jar <jar> -stragglers" || fail "-stragglers: $out"
out=$("$POCACHE" cluster jar "$jar" -checknative 2>&1)
[[ "$out" == *"isal:"* ]] && ok "hadoop jar <jar> -checknative" || fail "-checknative: $out"

# Operator commands from the drop-in jar alone (bin/pocache on Hadoop's class path and conf dir).
export HADOOP_HOME="$POCACHE_CLUSTER_DIR/hadoop" HADOOP_CONF_DIR="$POCACHE_CLUSTER_DIR/conf"
out=$("$HOME_DIR/bin/pocache" admin -report 2>&1)
[[ "$out" == *"healthy"* ]] && ok "bin/pocache admin -report" || fail "bin/pocache admin -report: $out"
# The standalone Manager (another port and key prefix, beside the NameNode's own).
"$HOME_DIR/bin/pocache" manager -D dfs.pocache.manager.address=127.0.0.1:8049 \
  -D dfs.pocache.redis.key.prefix=standalone: >"$logs/standalone-manager.log" 2>&1 &
standalone=$!
for _ in $(seq 60); do
  out=$("$HOME_DIR/bin/pocache" admin -D dfs.pocache.manager.address=127.0.0.1:8049 -report 2>&1) && break
  sleep 1
done
[[ "$out" == *"healthy"* ]] && ok "bin/pocache manager serves -report" || fail "bin/pocache manager: $out $(tail -5 "$logs/standalone-manager.log")"
kill "$standalone" 2>/dev/null; wait "$standalone" 2>/dev/null
unset HADOOP_HOME HADOOP_CONF_DIR

# A client configured by core-site.xml writes (cached on write) and reads.
tmp=$(mktemp -d)
head -c $((8 << 20)) /dev/urandom >"$tmp/data"
"$POCACHE" cluster hdfs dfs -D dfs.blocksize=1048576 -put "$tmp/data" /data >/dev/null 2>&1 || fail "put"
out=$("$POCACHE" cluster jar "$jar" -report 2>&1)
[[ "$out" =~ Files\ cached:\ +1 ]] && ok "the write was cached" || fail "not cached on write: $out"
# -put wrote /data._COPYING_ and renamed it; the listing names the file as it is now.
out=$("$POCACHE" cluster jar "$jar" -ls /data 2>&1)
[[ "$out" == *"CACHED "*" /data" ]] && ok "-ls lists the put file under its final name" || fail "-ls /data: $out"
"$POCACHE" cluster hdfs dfs -cat /data >"$tmp/back" 2>/dev/null
cmp -s "$tmp/data" "$tmp/back" && ok "hdfs dfs -cat reads the same bytes" || fail "-cat returned other bytes"
# README step 3's placement: with 3 DataNodes, every 3 consecutive blocks of /data on 3 of them.
grep -q "POCache stripe placement: a new block avoids" "$logs/namenode.log" \
  && ok "the NameNode places blocks by stripe (hdfs-site.xml)" || fail "no stripe placement in the NameNode's log"
locs=$("$POCACHE" cluster hdfs fsck /data -files -blocks -locations 2>/dev/null \
  | sed -n 's/.*DatanodeInfoWithStorage\[\([0-9.]*:[0-9]*\),.*/\1/p' | tr '\n' ' ')
python3 - "$locs" <<'PY' && ok "every 3 consecutive blocks on 3 DataNodes: $locs" || fail "stripe placement: $locs"
import sys
b = sys.argv[1].split()
sys.exit(0 if len(b) == 8 and all(len(set(b[i:i + 3])) == len(b[i:i + 3]) for i in range(len(b))) else 1)
PY
out=$("$POCACHE" cluster jar "$jar" -report 2>&1)
[[ "$out" =~ Hits:\ +[1-9] ]] && ok "the read was a cache hit" || fail "no hit recorded: $out"

# A file written without POCache is cached by its first reader, even one that exits at once:
# `hdfs dfs -cat` fills the parity as it reads, and its FileSystem's close waits for the commit.
"$POCACHE" cluster hdfs dfs -D fs.hdfs.impl=org.apache.hadoop.hdfs.DistributedFileSystem \
  -D dfs.blocksize=1048576 -put "$tmp/data" /plain >/dev/null 2>&1 || fail "put /plain"
"$POCACHE" cluster hdfs dfs -cat /plain >"$tmp/back" 2>/dev/null
cmp -s "$tmp/data" "$tmp/back" || fail "-cat of /plain returned other bytes"
out=$("$POCACHE" cluster jar "$jar" -ls /plain 2>&1)
[[ "$out" == *"CACHED "*"/plain"* ]] && ok "hdfs dfs -cat filled the parity of an uncached file" \
  || fail "an uncached file read by -cat was not cached: $out"

for kind in net cpu; do
  "$POCACHE" cluster straggler on 2 --kind $kind --factor 10 >/dev/null 2>&1 || fail "straggler on ($kind)"
  "$POCACHE" cluster hdfs dfs -cat /data >"$tmp/back" 2>/dev/null
  cmp -s "$tmp/data" "$tmp/back" && ok "exact bytes with a $kind straggler" || fail "other bytes with a $kind straggler"
  "$POCACHE" cluster straggler off >/dev/null 2>&1 || fail "straggler off ($kind)"
done
[[ ! -d /sys/fs/cgroup/cpu/pocache ]] || fail "cgroup left behind: /sys/fs/cgroup/cpu/pocache"

# Unshaped DataNodes (the default of `cluster up`): no tbf left on any DataNode's egress,
# a straggler there is shaped from 800 MiB/s, and reads stay exact.
"$POCACHE" cluster rate none >/dev/null 2>&1 || fail "cluster rate none"
for i in 1 2 3; do
  ! ip netns exec pocache-dn$i tc qdisc show dev pcdn${i}g 2>/dev/null | grep -q tbf \
    || fail "DataNode $i still shaped after 'cluster rate none'"
done
"$POCACHE" cluster straggler on 2 --factor 10 >/dev/null 2>&1 || fail "straggler on (unshaped cluster)"
ip netns exec pocache-dn2 tc qdisc show dev pcdn2g 2>/dev/null | grep -q tbf \
  || fail "the straggler of an unshaped cluster is not shaped"
"$POCACHE" cluster hdfs dfs -cat /data >"$tmp/back" 2>/dev/null
cmp -s "$tmp/data" "$tmp/back" && ok "unshaped DataNodes: exact bytes, with a straggler at 80 MiB/s" \
  || fail "other bytes on the unshaped cluster"
"$POCACHE" cluster rate 64 >/dev/null 2>&1 || fail "cluster rate 64"

# An unmodified MapReduce job on YARN reads through POCache and gets the right answer: its
# input (3 blocks, cached on write) is read by the map task through POCache, which the
# Manager counts as hits.
hits() { "$POCACHE" cluster jar "$jar" -report 2>&1 | sed -n 's/^ *Hits: *\([0-9]*\).*/\1/p' | head -1; }
python3 -c 'import sys; sys.stdout.write("a b c a\nb a\n" * 240000)' >"$tmp/words" # 3.0 MiB
"$POCACHE" cluster hdfs dfs -D dfs.blocksize=1048576 -put "$tmp/words" /words >/dev/null 2>&1 || fail "put /words"
ex=$(ls "$lib"/hadoop-mapreduce-examples-*.jar)
before=$(hits)
if "$POCACHE" cluster jar "$ex" wordcount /words /wc-out >"$tmp/job.log" 2>&1; then
  out=$("$POCACHE" cluster hdfs dfs -cat '/wc-out/part-*' 2>/dev/null | tr '\t' ' ')
  [[ "$out" == $'a 720000\nb 480000\nc 240000' ]] && ok "wordcount on YARN" || fail "wordcount output: $out"
  after=$(hits)
  [[ "$before" =~ ^[0-9]+$ && "$after" =~ ^[0-9]+$ && $after -gt $before ]] \
    && ok "the wordcount's map task read through POCache (Manager hits $before -> $after)" \
    || fail "the wordcount's reads did not go through POCache (Manager hits '$before' -> '$after')"
else
  fail "wordcount failed: $(tail -20 "$tmp/job.log")"
fi
# The paper's experiments on this cluster at a tiny size, so that they do not rot. They share one
# restart: experiment 14's (6 DataNodes, dfs.pocache.code.k = 4, CSAC+LFU and a cache of 4 blocks)
# suits 5, 16, 2 and 1 as well. Experiment 14: six files placed as planned three ways and read 12
# times by each strategy, every byte checked.
if "$POCACHE" experiment exp14 --cluster multiproc --cache-blocks 4 --files 6 --reads 12 --datanodes 6 \
    --listed-within-s 10 --json "$tmp/exp14-mp.json" >"$tmp/exp14.log" 2>&1; then
  rows=$(python3 -c 'import json, sys; print(" ".join("%s/%d/%d" % (r["mode"], r["cache_blocks"], r["reads"])
    for r in json.load(open(sys.argv[1]))["rows"]))' "$tmp/exp14-mp.json" 2>&1)
  want="SR/4/12 DC1/4/12 DC2/4/12 OR/4/12 POCache/4/12"
  [[ "$rows" == "$want" && -s "$tmp/exp14-mp.png" ]] && ok "experiment exp14 --cluster multiproc: $rows" \
    || fail "experiment exp14 --cluster multiproc: rows '$rows', want '$want'"
else
  fail "experiment exp14 --cluster multiproc: $(tail -20 "$tmp/exp14.log")"
fi
# Experiment 5 at a tiny size: 2 client JVMs per row; every client checks every byte it reads.
if "$POCACHE" experiment exp5 --cluster multiproc --clients 2 --files 6 --reads 3 --cache-blocks 4 --datanodes 6 \
    --listed-within-s 10 \
    --json "$tmp/exp5-mp.json" >"$tmp/exp5.log" 2>&1; then
  rows=$(python3 -c 'import json, sys; print(" ".join("%s/%d/%d" % (r["mode"].replace(" ", "-"), r["clients"],
    sum(len(c) for c in r["latencies_ms_per_client"])) for r in json.load(open(sys.argv[1]))["rows"]))' \
    "$tmp/exp5-mp.json" 2>&1)
  want="Vanilla/2/6 POCache/2/6 Vanilla-(striped)/2/6 POCache-(striped)/2/6"
  [[ "$rows" == "$want" && -s "$tmp/exp5-mp.png" ]] && ok "experiment exp5 --cluster multiproc: $rows" \
    || fail "experiment exp5 --cluster multiproc: rows '$rows', want '$want'"
else
  fail "experiment exp5 --cluster multiproc: $(tail -20 "$tmp/exp5.log")"
fi
# Experiment 16 at a tiny size: DataNodes slowed and freed at random every
# second while one client JVM per mode reads (and checks) 30 files.
if "$POCACHE" experiment exp16 --cluster multiproc --files 6 --reads 30 --cache-blocks 4 --datanodes 6 \
    --epoch-s 1 --p 0.5 --json "$tmp/exp16-mp.json" >"$tmp/exp16.log" 2>&1; then
  rows=$(python3 -c 'import json, sys; rows = json.load(open(sys.argv[1]))["rows"]
print(" ".join("%s/%d" % (r["mode"].replace(" ", "-"), r["reads"]) for r in rows),
      sum(sum(len(a["slow"]) for a in r["stragglers_applied"]) > 0 for r in rows))' "$tmp/exp16-mp.json" 2>&1)
  want="Vanilla/30 POCache/30 Vanilla-(striped)/30 POCache-(striped)/30 4"
  [[ "$rows" == "$want" && -s "$tmp/exp16-mp.png" ]] && ok "experiment exp16 --cluster multiproc: $rows" \
    || fail "experiment exp16 --cluster multiproc: rows and rows with stragglers '$rows', want '$want'"
else
  fail "experiment exp16 --cluster multiproc: $(tail -20 "$tmp/exp16.log")"
fi
# Experiments 1 and 2 at a tiny size on the same cluster (k = 4 and 6 DataNodes: RS-4-2 for
# experiment 2); every read is checked.
for e in exp2 exp1; do
  if "$POCACHE" experiment $e --cluster multiproc --k 4 --files 1 --repeats 1 --block-mib 1 --datanodes 6 \
      --json "$tmp/$e-mp.json" >"$tmp/$e.log" 2>&1; then
    modes=$(python3 -c 'import json, sys; print(" ".join(sorted({r["mode"] + ("+s" if r["straggler"] else "")
      for r in json.load(open(sys.argv[1]))["rows"]})))' "$tmp/$e-mp.json" 2>&1)
    want="pocache pocache+s vanilla vanilla+s"
    [[ $e == exp1 ]] && want="hr hr+s hr-default hr-default+s pocache pocache+s pr pr+s vanilla vanilla+s"
    [[ "$modes" == "$want" && -s "$tmp/$e-mp.png" ]] && ok "experiment $e --cluster multiproc: $modes" \
      || fail "experiment $e --cluster multiproc: rows '$modes', want '$want'"
  else
    fail "experiment $e --cluster multiproc: $(tail -20 "$tmp/$e.log")"
  fi
done
status=$("$POCACHE" cluster status 2>&1)
[[ "$status" == *"namenode"* && "$status" != *"DEAD"* ]] && ok "cluster status" || fail "status: $status"


# README step 3's HA keys, as `cluster up --ha` writes them (hdfs-site.xml only): both NameNodes
# host a Manager; a file cached before a manual failover (hdfs haadmin -failover) is read after
# it as a hit of the new active Manager, which took the index over from Redis: no refill.
"$POCACHE" cluster down >/dev/null 2>&1
rm -rf "$POCACHE_CLUSTER_DIR/data" "$POCACHE_CLUSTER_DIR"/dn*
if "$POCACHE" cluster up --ha --datanodes 3 --yarn off >"$tmp/ha-up.log" 2>&1; then
  grep -q "POCache Manager listening" "$logs/namenode2.log" && grep -q "POCache Manager listening" "$logs/namenode.log" \
    && ok "HA: both NameNodes host a Manager" || fail "HA: a NameNode without its Manager"
  "$POCACHE" cluster hdfs dfs -D dfs.blocksize=1048576 -put "$tmp/data" /ha >/dev/null 2>&1 || fail "HA: put /ha"
  out=$("$POCACHE" cluster jar "$jar" -ls /ha 2>&1)
  [[ "$out" == *"CACHED "*" /ha" ]] && ok "HA: the write was cached by the active NameNode's Manager" \
    || fail "HA: /ha not cached on write: $out"
  if "$POCACHE" cluster failover >/dev/null 2>&1; then
    # The new active Manager serves once it has rebuilt its index from Redis (until then it
    # refuses, and a read goes to HDFS alone): wait for that, up to 60 s, before the read.
    for ((i = 0; i < 60; i++)); do
      out=$("$POCACHE" cluster jar "$jar" -report 2>&1)
      [[ "$out" =~ Files\ cached:\ +1[^0-9] ]] && break
      sleep 1
    done
    "$POCACHE" cluster hdfs dfs -cat /ha >"$tmp/back" 2>/dev/null
    cmp -s "$tmp/data" "$tmp/back" && ok "HA: exact bytes after the failover" || fail "HA: other bytes after the failover"
    out=$("$POCACHE" cluster jar "$jar" -report 2>&1)
    [[ "$out" =~ Hits:\ +[1-9] && "$out" =~ Files\ cached:\ +1[^0-9] ]] \
      && ok "HA: after the failover the new active Manager served the parity cached before it (a hit, 1 file)" \
      || fail "HA: the new active Manager did not serve the parity cached before the failover: $out"
  else
    fail "HA: cluster failover"
  fi
else
  fail "HA: cluster up --ha: $(tail -20 "$tmp/ha-up.log")"
fi

# Federation (README step 3's per-nameservice keys) on Hadoop 3.4.1 servers with the drop-in
# jar for 3.3 and later: two nameservices behind a ViewFs mount table, each with its Manager
# and its own Redis key prefix; a file in each is cached by its own Manager and read exactly.
"$POCACHE" cluster down >/dev/null 2>&1
rm -rf "$POCACHE_CLUSTER_DIR/data" "$POCACHE_CLUSTER_DIR"/dn*
if "$POCACHE" cluster up --federation --hadoop 3.4 --datanodes 3 --yarn off >"$tmp/fed-up.log" 2>&1; then
  if "$POCACHE" experiment federation --mib 4 --block-mib 1 --json "$tmp/fed.json" >"$tmp/fed.log" 2>&1; then
    got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(" ".join("%s:%s" % (r["nameservice"], "ok" if r["cached"] and r["bytes_right"] and r["hits_after"] > r["hits_before"]
    and r["redis_keys"] > 0 else "no") for r in d["nameservices"]), d["keys_outside_the_prefixes"])' "$tmp/fed.json" 2>&1)
    [[ "$got" == "ns1:ok ns2:ok 0" ]] \
      && ok "federation (Hadoop 3.4.1): each nameservice's file cached by its Manager, a hit, exact bytes, its own keys" \
      || fail "federation: '$got', want 'ns1:ok ns2:ok 0' ($(tail -5 "$tmp/fed.log"))"
  else
    fail "experiment federation: $(tail -20 "$tmp/fed.log")"
  fi
else
  fail "federation: cluster up --federation --hadoop 3.4: $(tail -20 "$tmp/fed-up.log")"
fi

"$POCACHE" cluster down >/dev/null 2>&1
trap - EXIT
[[ -z $(ip netns list 2>/dev/null | grep pocache-dn) ]] && ok "down removes the namespaces" || fail "namespaces left"
for f in "$POCACHE_CLUSTER_DIR"/pids/*.pid; do
  [[ -f "$f" ]] && fail "pid file left: $f"
done
rm -rf "$tmp"

if [[ $failures -gt 0 ]]; then
  echo "$failures cluster test(s) failed; logs in $logs"
  exit 1
fi
echo "all cluster tests passed"
