# shellcheck shell=bash
#
# `pocache experiment mapreduce|reads`: jobs and reads on the multi-process cluster of
# `pocache cluster up`, stock HDFS against POCache. Sourced by scripts/pocache after
# lib/cluster.sh. Only fs.hdfs.impl differs between the two modes (-D on the job's
# command line), so both run on the same cluster, data and straggler, in turns.

EXAMPLES_JAR() { ls "$CL_LIB"/hadoop-mapreduce-examples-*.jar | head -1; }
VANILLA_FS=org.apache.hadoop.hdfs.DistributedFileSystem
POCACHE_FS=org.pocache.hdfs.client.PoCacheFileSystem
# The same two, timing the read calls of the streams they open (experiments/.../TimedReads.java).
TIMED_VANILLA_FS='org.pocache.experiments.cluster.TimedReads$Vanilla'
TIMED_POCACHE_FS='org.pocache.experiments.cluster.TimedReads$PoCache'
# Extra generic options for the jobs ex_job runs (-libjars of the timing classes).
EX_JOB_OPTS=()
EX_SPARK_OPTS=()

ex_usage() {
  cat <<'USAGE'
Usage: pocache experiment <name> [options]     (on a cluster started with `pocache cluster up`)

  mapreduce [--jobs wordcount,sort,terasort] [--repeats N] [--input-mib M] [--block-mib B]
            [--rate MiB/s] [--straggler i|auto] [--factor F] [--json F]
      hadoop-mapreduce-examples jobs, stock HDFS vs POCache, without and with a straggler
      DataNode (its rate / F, default 10; auto: the DataNode holding most input blocks
      that are alone in their stripe, i.e. most of what m = 1 parity can mask);
      job time and per-task map times; outputs compared (teravalidate for terasort).
      Defaults: all three jobs, 3 repeats, 256 MiB inputs in 32 MiB blocks, every DataNode
      shaped to 8 MiB/s (on 2 cores a map task computes at about 1 MiB/s, so a task
      reads about as fast as it computes, as on a balanced cluster).
  spark [--spark 3.3|3.5|4.0|4.2] [--jobs wordcount,parquet] [--repeats N] [--input-mib M]
        [--block-mib B] [--rate MiB/s] [--straggler i|auto] [--factor F] [--json F]
      Spark jobs (local[2] driver), stock HDFS vs POCache (-Dspark.hadoop.fs.hdfs.impl),
      without and with a straggler. --spark 3.3 (default): Spark 3.3.4 on the cluster's
      Hadoop 3.1.4 client jars with the Hadoop 3.1 drop-in; 3.5, 4.0, 4.2: Spark 3.5.9,
      4.0.1, 4.2.0 with the shaded Hadoop client each bundles (3.3.4, 3.4.1, 3.5.0) and the
      drop-in for Hadoop 3.3 and later. Every POCache run must read through POCache (the
      Manager's hits during the job). The jobs: an RDD
      word count (textFile: one task per block) and a DataFrame that writes the words as
      Parquet, reads them back and aggregates. Job time (the Spark actions), the tasks'
      input metrics (must equal stock HDFS's) and outputs compared. Defaults: both jobs,
      3 repeats, 128 MiB of text in 16 MiB blocks, DataNodes at 8 MiB/s.
  reads [--repeats N] [--rate MiB/s|none] [--straggler i] [--factor F] [--json F]
      sequential (hdfs dfs -cat), per-block (one task per split) and whole-file positional
      reads of six 64 MiB files in 16 MiB blocks, stock HDFS vs POCache, without and with
      a straggler (its rate / F; unshaped DataNodes count as 800 MiB/s); --rate reshapes
      every DataNode first (default: as the cluster is)
  ha [--repeats N] [--input-mib M] [--block-mib B] [--rate MiB/s|none] [--failover-after S]
     [--straggler i|auto] [--factor F] [--json F]
      on a cluster started with --ha: a wordcount and a teragen, stock HDFS vs POCache, each
      with `hdfs haadmin -failover` S s (default 15) after it starts, without and with a
      straggler (its rate / F, default 10; DataNodes at 8 MiB/s unless --rate); job times,
      failed tasks, outputs compared across modes, and whether the new active NameNode's
      Manager lists the input's parity; JSON in docs/results/cluster/ha.json
  rolling-restart [--runs N] [--settle S] [--warm W] [--rate MiB/s|none] [--restart-nice N] [--json F]
      a rolling restart (cluster restart all: every DataNode in turn, then with --ha the
      standby NameNode, a failover and the other) under a reader and a writer, once
      through stock HDFS and once through POCache per run; W s (default 20) of load
      before and after, S s (default 10) between restarts; failed and wrong operations,
      and the reads that met the DataNode being restarted against the others. What a
      restart starts (the daemon until it is back, the admin commands) runs at niceness N
      (default 19): on a cluster it has cores of its own, here it shares the readers'
      (0: at the readers' priority). JSON in docs/results/cluster/rolling-restart.json
  federation [--mib M] [--block-mib B] [--json F]
      on a cluster started with --federation: a file of M MiB (default 64) at the same path
      in both nameservices, other bytes in each, written and read (-cat) through ViewFs with
      POCache; whether each nameservice's Manager cached its own and counted the read as a
      hit, the bytes read, and the Redis keys under each one's prefix; JSON in
      docs/results/cluster/federation.json
USAGE
  alt_usage
  cat <<'USAGE'
  stragglers [--seconds S] [--runs N] [--straggler i|auto] [--factor F] [--json F]
      the Manager's straggler list sampled every 2 s under a steady read load: S s
      (default 120) without a straggler, S s with DataNode i at 1/F, S s after it
      recovers; per phase, how often the straggler and how often a healthy DataNode
      was listed, and how long the list took to find and to clear it
  exp1 | exp2 | exp7 | exp8 | exp9 | exp11 | exp13 | exp15 | all
      [--scale small|tiny] [--json F] [--plot F.png] [--dir D] [--disk-bandwidth B] [--slowdown S]
      the paper's experiments on the in-process cluster (no `cluster up` needed): JSON with
      every latency and the headline numbers beside the paper's, and a figure, in D
      (default docs/results/experiments); `pocache report` turns them into docs/results.md
  exp1 | exp2 --cluster multiproc [--k 4,6,8,10] [--block-mib B] [--files F] [--repeats R]
      [--factor F] [--datanodes N] [--json F] [--plot F.png]
      Experiment 1 (contiguous: Vanilla, HR, PR, POCache) or 2 (striped) on this cluster: per
      k the cluster is (re)started with dfs.pocache.code.k = k and enough DataNodes, F files
      (default 2) of k blocks of B MiB (default 8) are written and cached, and each mode
      reads each file R times (default 5) without and with DataNode 1 at 1/F; JSON and
      figure in docs/results/experiments/expN-mp.json (see docs/cluster.md)
  exp5 --cluster multiproc [--clients 4,8,12] [--files F] [--reads R] [--block-mib B]
      [--cache-blocks C] [--factor F] [--datanodes N] [--listed-within-s S] [--json F] [--plot F.png]
      Experiment 5 on this cluster (restarted with dfs.pocache.code.k = 4 and a cache of C
      blocks, default 40): F four-block files (default 100) of B MiB blocks (default 1),
      contiguous and RS-4-2, DataNode 1 at 1/F; for each client count, that many client
      JVMs read R Zipf-0.9 files each (default 50), as Vanilla and as POCache, at once,
      once the Manager lists the straggler (at most S s of probe reads, default 120);
      mean and p95 per row in docs/results/experiments/exp5-mp.json
  exp14 --cluster multiproc [--cache-blocks 40,60,80] [--files F] [--reads R] [--block-mib B]
      [--factor F] [--datanodes N] [--listed-within-s S] [--json F] [--plot F.png]
      Experiment 14 on this cluster, restarted per cache size with that cache and CSAC+LFU: F
      four-block files (default 100) placed as planned three ways (once; popular files twice
      for SR; three times off DataNode 1 for OR), DataNode 1 at 1/F, R Zipf-0.9 reads (default
      500) by SR, DC1, DC2 (data blocks in the cluster's redis-server), OR and POCache, after
      probe reads until the Manager lists DataNode 1 (at most S s, default 120);
      docs/results/experiments/exp14-mp.json
  exp16 --cluster multiproc [--files F] [--reads R] [--block-mib B] [--cache-blocks C]
      [--epoch-s E] [--p P] [--datanodes N] [--json F] [--plot F.png]
      Experiment 16 on this cluster (restarted with dfs.pocache.code.k = 4 and a cache of C
      blocks, default 60): F four-block files (default 150), contiguous and RS-4-2; while one
      client JVM reads R Zipf-0.9 files (default 2000) per mode, every E s (default 8) each
      DataNode is slow with probability P (default 0.1) at 1/2, 1/4 or 1/10 (tc), the same
      schedule for every mode, unknown to the Manager; docs/results/experiments/exp16-mp.json
  plot [--out F.png] [JSON...]
      draws the job experiments' JSON (default: target/cluster/results/mapreduce.json and
      spark.json, whichever exist) as one bar chart of POCache / stock HDFS job times
USAGE
}

ex_require_cluster() {
  cl_alive namenode || die "experiment: the cluster is not up (scripts/pocache cluster up)"
  [[ $(cl_get pocache) == on ]] || die "experiment: the cluster runs without POCache (cluster up --pocache on)"
}

# Runs a job; prints its wall time in ms on stdout, its log to $2.
ex_job() { # fsimpl, log, RunJar args...
  local fs=$1 log=$2
  shift 2
  local t0 t1 jar=$1 prog=$2
  shift 2
  [[ $(cl_get yarn) != off ]] || die "experiment: jobs need YARN, and the cluster runs without it (an experiment" \
    "that reads only restarted it with --yarn off): scripts/pocache cluster down, then cluster up"
  t0=$(date +%s%N)
  # JSON job history (the same events as the default binary form) so that summarize.py can
  # read every task's CPU and time without Hadoop on its path.
  if ! HADOOP_ROOT_LOGGER=INFO,console cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$jar" "$prog" \
      -D fs.hdfs.impl="$fs" -D mapreduce.jobhistory.jhist.format=json "${EX_JOB_OPTS[@]}" "$@" >"$log" 2>&1; then
    tail -30 "$log" >&2
    die "experiment: job $prog failed; see $log"
  fi
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}

# Copies the job history of the last job in a log to <log>.jhist: each task's CPU, GC and
# times (the ApplicationMaster copies it to done_intermediate as the job ends).
ex_fetch_history() { # log
  local id t
  id=$(grep -o 'Running job: job_[0-9_]*' "$1" | tail -1 | awk '{print $3}')
  [[ -n "$id" ]] || return 0
  for t in $(seq 1 20); do
    if cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS -cat "/tmp/hadoop-yarn/staging/history/done_intermediate/*/$id-*.jhist" \
        >"$1.jhist" 2>/dev/null && [[ -s "$1.jhist" ]]; then
      return 0
    fi
    sleep 0.5
  done
  rm -f "$1.jhist"
  say "experiment: no job history found for $id (per-task numbers of this run are left out)"
}

# Each map task's time inside the read calls of its input (TimedReads' log lines in the task
# logs of the last job in a log) to <log>.reads: "container read_ms bytes" per task.
ex_fetch_read_times() { # log, input path prefix
  local id app
  id=$(grep -o 'Running job: job_[0-9_]*' "$1" | tail -1 | awk '{print $3}')
  app=${id/job_/application_}
  : >"$1.reads"
  [[ -n "$id" && -d "$CLUSTER_DIR/logs/containers/$app" ]] || return 0
  grep -H "timed reads: path=$2" "$CLUSTER_DIR/logs/containers/$app"/*/syslog 2>/dev/null \
    | awk '{c=$1; sub(/\/syslog:.*/, "", c); sub(/.*\//, "", c)
            for (i = 1; i <= NF; i++) { if ($i ~ /^read_ms=/) ms[c] += substr($i, 9); if ($i ~ /^bytes=/) b[c] += substr($i, 7) } }
      END {for (c in ms) printf "%s %.1f %d\n", c, ms[c], b[c]}' >"$1.reads"
}

# Mean map-task time of the last job in a log, from the job's counters (ms).
ex_map_ms() {
  awk -F= '/Total time spent by all map tasks \(ms\)/ {t=$2} /Launched map tasks/ {n=$2}
    END {if (n > 0) printf "%d", t / n; else print 0}' "$1"
}

ex_digest() { # hdfs dir, job -> md5 of its records
  # sort writes SequenceFiles, whose sync markers are random per file: compare records (-text).
  local how=-cat
  [[ $2 == sort ]] && how=-text
  cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS $how "$1/part-*" 2>/dev/null | md5sum | awk '{print $1}'
}

# The DataNode to slow down for a path: the one holding most blocks that are alone in their
# stripe (what m = 1 parity can mask); see summarize.py.
ex_pick_straggler() { # hdfs path
  cl_hdfs fsck "$1" -files -blocks -locations 2>/dev/null \
    | python3 "$POCACHE_HOME/scripts/lib/summarize.py" pick-straggler 4
}

# Makes sure the Manager holds parity for every file under the given paths before jobs are
# timed: Redis keeps no parity across a cluster restart, and a job whose first reads are misses
# measures the fill, not the cache. A file that is not CACHED is read once through POCache (the
# Manager hands the read to the reader, which uploads the parity), then the Manager is polled.
ex_ensure_cached() { # hdfs path...
  local p listing missing t
  for p in "$@"; do
    for t in $(seq 1 60); do
      listing=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -ls "$p" 2>/dev/null || true)
      missing=$(cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS -ls -R "$p" 2>/dev/null | awk '$1 !~ /^d/ && $5 > 0 {print $8}' \
        | while read -r f; do grep -qE "^CACHED .* $f\$" <<<"$listing" || echo "$f"; done)
      [[ -z "$missing" ]] && break
      if ((t == 1)); then
        say "experiment: the Manager does not list all of $p as cached (a restarted Redis keeps no parity, a file of less than dfs.pocache.write.min.blocks blocks is not cached on write); asking it to fill them (admin -prefetch)"
        local f
        for f in $missing; do
          cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -prefetch "$f" >/dev/null 2>&1 \
            || cl_hdfs dfs -D fs.hdfs.impl=$POCACHE_FS -cat "$f" >/dev/null 2>&1 || true
        done
      fi
      sleep 1
    done
    [[ -z "$missing" ]] || die "experiment: the Manager did not cache $(echo $missing | wc -w) file(s) under $p; see 'scripts/pocache cluster status'"
  done
}

# The file systems that time their input reads (TimedReads, Experiment 10) as a jar that jobs
# ship to their tasks with -libjars.
ex_timed_reads_jar() { # out jar
  python3 - "$POCACHE_HOME/experiments/target/classes" "$1" <<'PY'
import os, sys, zipfile
root, out = sys.argv[1], sys.argv[2]
d = os.path.join(root, "org/pocache/experiments/cluster")
with zipfile.ZipFile(out, "w") as z:
    for f in sorted(os.listdir(d)):
        if f.startswith("TimedReads"):
            z.write(os.path.join(d, f), "org/pocache/experiments/cluster/" + f)
PY
}

ex_mapreduce() {
  local jobs=wordcount,sort,terasort repeats=3 input=256 block=32 straggler=auto factor=10 rate=8
  local json="$CLUSTER_DIR/results/mapreduce.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --jobs) jobs=$2; shift 2 ;;
      --repeats) repeats=$2; shift 2 ;;
      --input-mib) input=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --straggler) straggler=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment mapreduce: unknown option '$1'" ;;
    esac
  done
  [[ "$repeats" =~ ^[1-9][0-9]*$ ]] || die "experiment mapreduce: --repeats must be a positive integer, got '$repeats'"
  [[ "$input" =~ ^[1-9][0-9]*$ && "$block" =~ ^[1-9][0-9]*$ ]] || die "experiment mapreduce: --input-mib and --block-mib must be positive integers"
  ex_require_cluster
  local ex bs=$((block * 1048576)) work="$CLUSTER_DIR/results/mapreduce" rows="$CLUSTER_DIR/results/mapreduce.rows"
  ex=$(EXAMPLES_JAR)
  mkdir -p "$work"
  : >"$rows"
  # The jobs run on file systems that time their input reads (Experiment 10), shipped with -libjars.
  ex_timed_reads_jar "$work/timed-reads.jar"
  EX_JOB_OPTS=(-libjars "$work/timed-reads.jar")
  cl_valid_rate "$rate" || die "experiment mapreduce: --rate must be MiB/s or none, got '$rate'"
  cl_set_rate "$rate"
  say "experiment mapreduce: DataNodes $(cl_rate_words "$rate"); inputs of $input MiB in $block MiB blocks, written through POCache (cached on write, or by a first read)"
  local j
  for j in ${jobs//,/ }; do
    case "$j" in
      wordcount)
        if ! cl_hdfs dfs -test -e /ex/wc-in 2>/dev/null; then
          python3 "$POCACHE_HOME/scripts/lib/words.py" "$((input * 1048576))" "$work/words.txt"
          cl_hdfs dfs -mkdir -p /ex
          cl_hdfs dfs -D dfs.blocksize=$bs -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/words.txt" /ex/wc-in >/dev/null
        fi ;;
      sort)
        if ! cl_hdfs dfs -test -d /ex/sort-in 2>/dev/null; then
          # Files of two blocks or more (here and for teragen's 100-byte rows): the Manager fills a file
          # shorter than dfs.pocache.cache.read.min.blocks (2) full blocks only while a straggler holds
          # one of its blocks.
          ex_job "$POCACHE_FS" "$work/randomwriter.log" "$ex" randomwriter -D dfs.blocksize=$bs \
            -D mapreduce.randomwriter.totalbytes=$((input * 1048576)) -D mapreduce.randomwriter.bytespermap=$((2 * bs)) \
            /ex/sort-in >/dev/null
        fi ;;
      terasort)
        if ! cl_hdfs dfs -test -d /ex/tera-in 2>/dev/null; then
          ex_job "$POCACHE_FS" "$work/teragen.log" "$ex" teragen -D dfs.blocksize=$bs \
            -D mapreduce.job.maps=$(((input / block + 1) / 2)) \
            $(( (input / block + 1) / 2 * ((2 * bs + 99) / 100) )) /ex/tera-in >/dev/null
        fi ;;
      *) die "experiment mapreduce: unknown job '$j' (wordcount, sort, terasort)" ;;
    esac
  done
  for j in ${jobs//,/ }; do
    case "$j" in wordcount) ex_ensure_cached /ex/wc-in ;; sort) ex_ensure_cached /ex/sort-in ;; terasort) ex_ensure_cached /ex/tera-in ;; esac
  done
  # --straggler auto slows, for each job, the DataNode that matters to that job's input.
  local -A dn_of=()
  local dns=""
  for j in ${jobs//,/ }; do
    if [[ $straggler == auto ]]; then
      case "$j" in wordcount) dn_of[$j]=$(ex_pick_straggler /ex/wc-in) ;; sort) dn_of[$j]=$(ex_pick_straggler /ex/sort-in) ;;
        *) dn_of[$j]=$(ex_pick_straggler /ex/tera-in) ;; esac
      dn_of[$j]=${dn_of[$j]:-1}
    else
      dn_of[$j]=$straggler
    fi
    dns="${dns:+$dns,}$j:${dn_of[$j]}"
  done
  local state mode r fs ms out log ref
  for state in none straggler; do
    cl_straggler off >/dev/null
    [[ $state == none ]] && ex_no_stragglers_listed /ex/wc-in '/ex/sort-in/part-*' '/ex/tera-in/part-*'
    for j in ${jobs//,/ }; do
      if [[ $state == straggler ]]; then
        cl_straggler off >/dev/null
        cl_straggler on "${dn_of[$j]}" --factor "$factor" >/dev/null
        say "experiment mapreduce: $j: DataNode ${dn_of[$j]} is a straggler (1/$factor of the others' rate)"
      fi
      for ((r = 1; r <= repeats; r++)); do
        local order=(vanilla pocache)
        ((r % 2 == 0)) && order=(pocache vanilla)
        for mode in "${order[@]}"; do
          fs=$TIMED_VANILLA_FS
          [[ $mode == pocache ]] && fs=$TIMED_POCACHE_FS
          out=/ex/out-$j-$mode
          log="$work/$j-$state-$mode-$r.log"
          cl_hdfs dfs -rm -r -f -skipTrash "$out" >/dev/null 2>&1 || true
          case "$j" in
            wordcount) ms=$(ex_job "$fs" "$log" "$ex" wordcount /ex/wc-in "$out") ;;
            sort) ms=$(ex_job "$fs" "$log" "$ex" sort -outKey org.apache.hadoop.io.BytesWritable \
                -outValue org.apache.hadoop.io.BytesWritable /ex/sort-in "$out") ;;
            terasort) ms=$(ex_job "$fs" "$log" "$ex" terasort /ex/tera-in "$out") ;;
          esac
          ex_fetch_history "$log"
          case "$j" in wordcount) ex_fetch_read_times "$log" /ex/wc-in ;; sort) ex_fetch_read_times "$log" /ex/sort-in ;;
            *) ex_fetch_read_times "$log" /ex/tera-in ;; esac
          local digest
          if [[ $j == terasort ]]; then
            cl_hdfs dfs -rm -r -f -skipTrash "$out-validate" >/dev/null 2>&1 || true
            ex_job "$VANILLA_FS" "$log.validate" "$ex" teravalidate "$out" "$out-validate" >/dev/null
            if cl_hdfs dfs -cat "$out-validate/part-*" 2>/dev/null | grep -q error; then
              die "experiment mapreduce: teravalidate found errors in $out ($mode, $state)"
            fi
          fi
          digest=$(ex_digest "$out" "$j")
          ref=$(awk -v j="$j" '$1 == j {print $7; exit}' "$rows")
          if [[ -n "$ref" && "$ref" != "$digest" ]]; then
            die "experiment mapreduce: $j output through $mode ($state) differs from the first run's"
          fi
          printf '%s %s %s %d %d %s %s\n' "$j" "$state" "$mode" "$r" "$ms" "$(ex_map_ms "$log")" "$digest" >>"$rows"
          printf 'pocache: %-9s %-9s %-7s run %d: %6d ms (mean map task %s ms)\n' "$j" "$state" "$mode" "$r" "$ms" "$(ex_map_ms "$log")" >&2
        done
      done
    done
  done
  cl_straggler off >/dev/null
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" mapreduce "$rows" "$json" "$dns" "$factor" "$input" "$block" "$work"
}

# Waits (at most 90 s) until the Manager lists no straggler, reading the files under the
# given path with stock HDFS meanwhile: a DataNode shaped a moment ago stays listed until
# fresh samples clear it (reads of it: a listed DataNode that POCache clients skip and
# nobody else reads serves nothing to sample), and a phase timed without a straggler
# would otherwise begin with one on the list, its POCache readers suspecting it.
ex_no_stragglers_listed() { # hdfs paths (globs) read meanwhile
  local out start=$SECONDS told=
  while ((SECONDS - start < 90)); do
    out=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -stragglers 2>/dev/null || true)
    if grep -qE '^Stragglers \([^)]*\): 0$' <<<"$out"; then
      [[ -n $told ]] && say "experiment: the Manager's straggler list cleared after $((SECONDS - start)) s"
      return 0
    fi
    [[ -z $told ]] && told=1 && say "experiment: the Manager still lists $(grep -c '^  ' <<<"$out") DataNode(s); reading $* with stock HDFS until it clears them"
    (cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS -cat "$@" 2>/dev/null | head -c $((512 << 20)) >/dev/null) || true
    sleep 3
  done
  say "experiment: the Manager still lists a straggler after 90 s: $(tr '\n' ' ' <<<"$out")"
}

# Six 64 MiB files in 16 MiB blocks under /ex/reads, written through POCache (once). A
# file with two blocks on one DataNode (its stripe placement was a preference: too few
# DataNodes left outside the window and the straggler list when it was written) is written
# again: one slow DataNode would be two slow pieces of its stripe, which m = 1 parity
# cannot mask, and its reads would measure that instead.
ex_reads_files() {
  local work="$CLUSTER_DIR/results/reads" i f shared try
  mkdir -p "$work"
  if ! cl_hdfs dfs -test -d /ex/reads 2>/dev/null; then
    cl_hdfs dfs -mkdir -p /ex/reads
    for i in 1 2 3 4 5 6; do
      ex_reads_file "/ex/reads/f$i.bin"
    done
  fi
  for try in 1 2 3; do
    shared=$(cl_hdfs fsck /ex/reads -files -blocks -locations 2>/dev/null \
      | python3 "$POCACHE_HOME/scripts/lib/summarize.py" shared-stripes 4)
    [[ -z "$shared" ]] && return 0
    for f in $shared; do
      say "experiment: $f has two blocks of a stripe on one DataNode; writing it again"
      ex_reads_file "$f"
    done
  done
  say "experiment: still two blocks of a stripe on one DataNode after three writes: $shared"
}

ex_reads_file() { # hdfs path
  local work="$CLUSTER_DIR/results/reads" name
  name=$(basename "$1")
  head -c $((64 << 20)) /dev/urandom >"$work/$name"
  cl_hdfs dfs -D dfs.blocksize=$((16 << 20)) -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/$name" "$1" >/dev/null
  rm -f "$work/$name"
}

ex_reads() {
  local repeats=5 straggler=auto factor=10 json="$CLUSTER_DIR/results/reads.json" rate=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --repeats) repeats=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --straggler) straggler=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment reads: unknown option '$1'" ;;
    esac
  done
  ex_require_cluster
  if [[ -n $rate ]]; then
    cl_valid_rate "$rate" || die "experiment reads: --rate must be MiB/s or none, got '$rate'"
    cl_set_rate "$rate"
  fi
  rate=$(cl_get rate)
  say "experiment reads: DataNodes $(cl_rate_words "$rate")"
  local work="$CLUSTER_DIR/results/reads"
  ex_reads_files
  ex_ensure_cached /ex/reads
  local dn=$straggler
  [[ $dn == auto ]] && dn=$(ex_pick_straggler /ex/reads)
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes"
  cl_straggler off >/dev/null
  ex_no_stragglers_listed '/ex/reads/*'
  say "experiment reads: no straggler"
  "$JAVA" -Xmx2g -Dhadoop.root.logger=WARN,console -cp "$cp" org.pocache.experiments.cluster.ClusterReads \
    --dir /ex/reads --repeats "$repeats" --label none --json "$work/none.json" 2> >(grep -v WARN >&2)
  cl_straggler on "$dn" --factor "$factor" >/dev/null
  say "experiment reads: DataNode $dn at 1/$factor of the others' rate"
  "$JAVA" -Xmx2g -Dhadoop.root.logger=WARN,console -cp "$cp" org.pocache.experiments.cluster.ClusterReads \
    --dir /ex/reads --repeats "$repeats" --label straggler --json "$work/straggler.json" 2> >(grep -v WARN >&2)
  cl_straggler off >/dev/null
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" reads "$work/none.json" "$work/straggler.json" "$json" "$dn" "$factor" "$rate"
}

# The Manager's straggler list against the truth: phases with no straggler, one
# DataNode shaped to 1/factor, and after it recovers, under a steady read load
# (ClusterReads over /ex/reads); the list sampled every 2 s.
ex_stragglers() {
  local seconds=120 runs=1 straggler=auto factor=10 json="$CLUSTER_DIR/results/stragglers.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --seconds) seconds=$2; shift 2 ;;
      --runs) runs=$2; shift 2 ;;
      --straggler) straggler=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment stragglers: unknown option '$1'" ;;
    esac
  done
  [[ "$seconds" =~ ^[0-9]+$ && $seconds -ge 10 ]] || die "experiment stragglers: --seconds must be >= 10, got '$seconds'"
  [[ "$runs" =~ ^[0-9]+$ && $runs -ge 1 ]] || die "experiment stragglers: --runs must be >= 1, got '$runs'"
  ex_require_cluster
  local work="$CLUSTER_DIR/results/stragglers"
  mkdir -p "$work"
  ex_reads_files
  ex_ensure_cached /ex/reads
  local dn=$straggler
  [[ $dn == auto ]] && dn=$(ex_pick_straggler /ex/reads)
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes"
  cl_straggler off >/dev/null
  # Three POCache clients, as three tasks or executors would be: one reading each block
  # in its own stream (a task per split), one positional, one front to back.
  # A client whose read fails (a block whose only replica sits on the straggler, in a
  # stripe parity cannot rescue, when the slow link drops its connections: stock HDFS
  # fails the same) starts again, as a task would be retried; its failures are logged.
  local load=() pattern
  for pattern in split pread seq; do
    (
      : >"$work/load-$pattern.log"
      while true; do
        "$JAVA" -Xmx1g -Dhadoop.root.logger=ERROR,console -cp "$cp" org.pocache.experiments.cluster.ClusterReads \
          --dir /ex/reads --repeats 100000 --modes pocache --patterns "$pattern" --label "load-$pattern" \
          >>"$work/load-$pattern.log" 2>&1 || echo "load-$pattern: restarted at $(date +%T)" >>"$work/load-$pattern.log"
        sleep 1
      done
    ) &
    load+=($!)
  done
  local sampler=(org.pocache.experiments.cluster.StragglerSampler) run per=()
  for ((run = 1; run <= runs; run++)); do
    : >"$work/samples-$run.txt"
    say "experiment stragglers: run $run of $runs: ${seconds} s without a straggler"
    "$JAVA" -Xmx256m -Dhadoop.root.logger=ERROR,console -cp "$cp" "${sampler[@]}" none "$seconds" 2000 >>"$work/samples-$run.txt"
    cl_straggler on "$dn" --factor "$factor" >/dev/null
    say "experiment stragglers: run $run of $runs: ${seconds} s with DataNode $dn at 1/$factor"
    "$JAVA" -Xmx256m -Dhadoop.root.logger=ERROR,console -cp "$cp" "${sampler[@]}" slow "$seconds" 2000 >>"$work/samples-$run.txt"
    cl_straggler off >/dev/null
    say "experiment stragglers: run $run of $runs: ${seconds} s after it recovered"
    "$JAVA" -Xmx256m -Dhadoop.root.logger=ERROR,console -cp "$cp" "${sampler[@]}" recovered "$seconds" 2000 >>"$work/samples-$run.txt"
    python3 "$POCACHE_HOME/scripts/lib/summarize.py" stragglers "$work/samples-$run.txt" "$work/run-$run.json" \
      "$CL_NET.$dn.2" "$factor"
    per+=("$work/run-$run.json")
  done
  kill "${load[@]}" 2>/dev/null || true
  pkill -f "org.pocache.experiments.cluster.ClusterReads --dir /ex/reads --repeats 100000" 2>/dev/null || true
  wait "${load[@]}" 2>/dev/null || true
  local restarts
  restarts=$(cat "$work"/load-*.log | grep -c ': restarted at ' || true)
  say "experiment stragglers: load clients restarted $restarts times (see $work/load-*.log)"
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" stragglers-runs "$json" "$seconds" "${per[@]}"
}

SPARK_DIR() { echo "$POCACHE_HOME/experiments/spark"; }

# --spark LINE -> "spark version, Scala binary version, Maven profile" (see experiments/spark/pom.xml).
ex_spark_line() {
  case "$1" in
    3.3) echo "3.3.4 2.12 hadoop31" ;;
    3.5) echo "3.5.9 2.12 bundled" ;;
    4.0) echo "4.0.1 2.13 bundled" ;;
    4.2) echo "4.2.0 2.13 bundled" ;;
    *) die "experiment spark: --spark must be 3.3, 3.5, 4.0 or 4.2, got '$1'" ;;
  esac
}

# Builds the Spark jobs for Spark $SPARK_VERSION and fetches that Spark (once per version).
ex_spark_build() {
  local d t jar
  d=$(SPARK_DIR)
  t="$d/target/spark-$SPARK_VERSION"
  jar="$t/pocache-experiments-spark-1.jar"
  if [[ ! -f "$jar" || -n $(find "$d/src" "$d/pom.xml" -newer "$jar" -type f 2>/dev/null) ]]; then
    say "experiment spark: building the Spark jobs (Spark $SPARK_VERSION from Maven Central, once; log in $t/build.log)"
    mkdir -p "$t"
    rm -rf "$t/lib" # no jar of an earlier build's dependencies stays on the jobs' class path
    (cd "$d" && mvn -B -q package -P"$SPARK_PROFILE" -Dspark.version="$SPARK_VERSION" -Dscala.binary="$SPARK_SCALA" \
      >"$t/build.log" 2>&1) || { tail -20 "$t/build.log" >&2; die "experiment spark: build failed; see $t/build.log"; }
  fi
}

# The drop-in a Spark job puts on its class path: the cluster's (Hadoop 3.1) for Spark on the
# cluster's client jars, the one for Hadoop 3.3 and later for a Spark with its own shaded client.
ex_spark_dropin() {
  if [[ $SPARK_PROFILE == hadoop31 ]]; then
    cl_dropin_jar
    return
  fi
  local j
  j=$(ls "$POCACHE_HOME"/dropin-hadoop-3.3/target/hdfs-pocache-patch-hadoop-3.3-*-dropin.jar 2>/dev/null | head -1)
  [[ -n "$j" ]] || die "experiment spark: no drop-in for Hadoop 3.3 and later; run 'scripts/pocache build' first"
  echo "$j"
}

# The Manager's count of lookups it answered with cached parity (admin -report's Hits).
ex_manager_hits() {
  cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -report 2>/dev/null \
    | awk '$1 == "Hits:" {print $2}'
}

# Runs one Spark job; prints its JSON line (with the JVM's wall time, the Manager's hits
# during the job and the proactive opens of the client's summary, when its log still
# took it at exit, added) on stdout, its log to $2. An input or output that is an HDFS path
# (/...) is given as a URI of the cluster's NameNode; EX_SPARK_OPTS adds JVM options (-D...).
ex_spark_job() { # fsimpl, log, job, input, output
  local fs=$1 log=$2 job=$3 in=$4 out=$5 d t opens="" p t0 t1 line proactive hits0 hits1
  [[ $in == /* ]] && in="hdfs://127.0.0.1:9000$in"
  [[ $out == /* ]] && out="hdfs://127.0.0.1:9000$out"
  d=$(SPARK_DIR)
  t="$d/target/spark-$SPARK_VERSION"
  for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
      java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens java.base/$p=ALL-UNNAMED"
  done
  hits0=$(ex_manager_hits)
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  if ! HADOOP_CONF_DIR=$CL_CONF SPARK_LOCAL_IP=127.0.0.1 "$JAVA" -Xmx2g $opens -Djdk.reflect.useDirectMethodHandle=false \
      -Dio.netty.tryReflectionSetAccessible=true -Dspark.master='local[2]' \
      -Dspark.ui.enabled=false -Dspark.sql.shuffle.partitions=4 -Dspark.hadoop.fs.hdfs.impl="$fs" \
      -cp "$CL_CONF:$t/pocache-experiments-spark-1.jar:$t/lib/*:$(ex_spark_dropin)" \
      "${EX_SPARK_OPTS[@]}" org.pocache.experiments.spark.SparkJobs "$job" "$in" "$out" \
      >"$log" 2>&1; then
    tail -30 "$log" >&2
    die "experiment spark: job $job failed; see $log"
  fi
  t1=$(date +%s%N)
  line=$(grep '^{"job"' "$log" | tail -1)
  [[ -n "$line" ]] || die "experiment spark: job $job printed no result; see $log"
  hits1=$(ex_manager_hits)
  [[ -n "$hits0" && -n "$hits1" ]] || die "experiment spark: the Manager's report could not be read (admin -report)"
  proactive=$({ grep -o 'POCache client summary: [0-9]* proactive opens' "$log" || true; } | awk '{s += $4} END {print s + 0}')
  if [[ $fs == "$POCACHE_FS" && $job != sql-gen && $((hits1 - hits0)) -eq 0 ]]; then
    die "experiment spark: job $job read nothing through POCache (the Manager served no cached parity); see $log"
  fi
  echo "${line%\}},\"wall_ms\":$(((t1 - t0) / 1000000)),\"manager_hits\":$((hits1 - hits0)),\"proactive_opens\":$proactive}"
}

ex_spark() {
  local jobs=wordcount,parquet repeats=3 input=128 block=16 straggler=auto factor=10 rate=8 spark=3.3
  local json="$CLUSTER_DIR/results/spark.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --spark) spark=$2; shift 2 ;;
      --jobs) jobs=$2; shift 2 ;;
      --repeats) repeats=$2; shift 2 ;;
      --input-mib) input=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --straggler) straggler=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment spark: unknown option '$1'" ;;
    esac
  done
  [[ "$repeats" =~ ^[1-9][0-9]*$ ]] || die "experiment spark: --repeats must be a positive integer, got '$repeats'"
  [[ "$input" =~ ^[1-9][0-9]*$ && "$block" =~ ^[1-9][0-9]*$ ]] || die "experiment spark: --input-mib and --block-mib must be positive integers"
  cl_valid_rate "$rate" || die "experiment spark: --rate must be MiB/s or none, got '$rate'"
  local j
  for j in ${jobs//,/ }; do
    [[ $j == wordcount || $j == parquet ]] || die "experiment spark: unknown job '$j' (wordcount, parquet)"
  done
  read -r SPARK_VERSION SPARK_SCALA SPARK_PROFILE <<<"$(ex_spark_line "$spark")"
  [[ $spark == 3.3 || $json != "$CLUSTER_DIR/results/spark.json" ]] || json="$CLUSTER_DIR/results/spark-$spark.json"
  ex_require_cluster
  ex_spark_build
  ex_spark_dropin >/dev/null
  local work="$CLUSTER_DIR/results/spark" rows="$CLUSTER_DIR/results/spark.rows" in=/ex/spark-in-$input-$block
  mkdir -p "$work"
  : >"$rows"
  cl_set_rate "$rate"
  if ! cl_hdfs dfs -test -e "$in" 2>/dev/null; then
    python3 "$POCACHE_HOME/scripts/lib/words.py" "$((input * 1048576))" "$work/words.txt"
    cl_hdfs dfs -mkdir -p /ex
    cl_hdfs dfs -D dfs.blocksize=$((block * 1048576)) -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/words.txt" "$in" >/dev/null
    rm -f "$work/words.txt"
  fi
  ex_ensure_cached "$in"
  say "experiment spark: DataNodes $(cl_rate_words "$rate"); $in: $input MiB of text in $block MiB blocks, written through POCache"
  local dn=$straggler
  if [[ $dn == auto ]]; then
    dn=$(ex_pick_straggler "$in")
    dn=${dn:-1}
  fi
  local state mode r fs out log line digest ref
  for state in none straggler; do
    if [[ $state == straggler ]]; then
      cl_straggler on "$dn" --factor "$factor" >/dev/null
      say "experiment spark: DataNode $dn is a straggler (1/$factor of the others' rate)"
    else
      cl_straggler off >/dev/null
    fi
    for j in ${jobs//,/ }; do
      for ((r = 1; r <= repeats; r++)); do
        local order=(vanilla pocache)
        ((r % 2 == 0)) && order=(pocache vanilla)
        for mode in "${order[@]}"; do
          fs=$VANILLA_FS
          [[ $mode == pocache ]] && fs=$POCACHE_FS
          out=/ex/spark-out-$j-$mode
          log="$work/$j-$state-$mode-$r.log"
          cl_hdfs dfs -rm -r -f -skipTrash "$out" >/dev/null 2>&1 || true
          line=$(ex_spark_job "$fs" "$log" "$j" "$in" "$out")
          if [[ $j == wordcount ]]; then
            digest=$(cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS -cat "$out/part-*" 2>/dev/null | LC_ALL=C sort | md5sum | awk '{print $1}')
          else
            digest=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["digest"])' "$line")
          fi
          ref=$(python3 "$POCACHE_HOME/scripts/lib/summarize.py" spark-digest "$rows" "$j")
          if [[ -n "$ref" && "$ref" != "$digest" ]]; then
            die "experiment spark: $j output through $mode ($state) differs from the first run's"
          fi
          python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d.update(state=sys.argv[2], mode=sys.argv[3], run=int(sys.argv[4]), digest=sys.argv[5]); print(json.dumps(d))' \
            "$line" "$state" "$mode" "$r" "$digest" >>"$rows"
          tail -1 "$rows" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print("pocache: %-9s %-9s %-7s run %d: %6d ms (JVM %d ms), input %d bytes" % (d["job"], d["state"], d["mode"], d["run"], d["ms"], d["wall_ms"], d["input_bytes"]))' >&2
        done
      done
    done
  done
  cl_straggler off >/dev/null
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" spark "$rows" "$json" "$dn" "$factor" "$input" "$block" \
    "$SPARK_VERSION" "$(basename "$(ex_spark_dropin)")"
}

ex_plot() {
  local out="$CLUSTER_DIR/results/jobs.png" files=() f
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --out) out=$2; shift 2 ;;
      -*) ex_usage >&2; die "experiment plot: unknown option '$1'" ;;
      *) [[ -f "$1" ]] || die "experiment plot: no such file: $1"; files+=("$1"); shift ;;
    esac
  done
  if [[ ${#files[@]} -eq 0 ]]; then
    for f in "$CLUSTER_DIR/results/mapreduce.json" "$CLUSTER_DIR/results/spark.json"; do
      [[ -f "$f" ]] && files+=("$f")
    done
  fi
  [[ ${#files[@]} -gt 0 ]] || die "experiment plot: no results yet; run 'pocache experiment mapreduce|spark' first"
  stale && build
  mkdir -p "$(dirname "$out")"
  "$JAVA" -cp "$POCACHE_HOME/experiments/target/classes:$(cat "$POCACHE_HOME/experiments/target/classpath.txt")" \
    org.pocache.experiments.cluster.JobChart "$out" "${files[@]}"
}

# Experiments 1 and 2 on the multi-process cluster: per k, the cluster runs with
# dfs.pocache.code.k = k (restarted when it does not), the files are written and cached,
# then read without and with DataNode 1 shaped to 1/factor (MultiProcessReads).
# The larger of $1 and the DataNodes that have stored blocks here: a cluster restarted with
# fewer would keep the NameNode in safe mode, waiting for the others' blocks.
ex_at_least_stored() { # datanodes
  local n=$1 have=0 d
  for d in "$CLUSTER_DIR"/dn[0-9]*/data; do
    [[ -d "$d" ]] && have=$((have + 1))
  done
  ((have > n)) && n=$have
  echo "$n"
}

ex_single_client_mp() { # exp1|exp2, options
  local id=$1
  shift
  local ks=4,6,8,10 block=8 files=2 repeats=5 factor=10 json="" plot="" datanodes=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --cluster) [[ $2 == multiproc ]] || die "experiment $id: --cluster must be multiproc here, got '$2'"; shift 2 ;;
      --k) ks=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --files) files=$2; shift 2 ;;
      --repeats) repeats=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --datanodes) datanodes=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      --plot) plot=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment $id --cluster multiproc: unknown option '$1'" ;;
    esac
  done
  [[ "$ks" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "experiment $id: --k must be a list like 4,6,8,10, got '$ks'"
  local k need=0
  for k in ${ks//,/ }; do
    local w=$((k + 1))
    if [[ $id == exp2 ]]; then
      w=$((k + 2))
      [[ $k == 6 ]] && w=9
      [[ $k == 10 ]] && w=14
    fi
    ((w > need)) && need=$w
  done
  [[ -n "$datanodes" ]] || datanodes=$need
  datanodes=$(ex_at_least_stored "$datanodes")
  ((datanodes >= need)) || die "experiment $id: k = $ks needs $need DataNodes, --datanodes is $datanodes"
  json=${json:-$POCACHE_HOME/docs/results/experiments/$id-mp.json}
  plot=${plot:-${json%.json}.png}
  local work="$CLUSTER_DIR/results/$id-mp" t0=$SECONDS layout=contiguous
  [[ $id == exp2 ]] && layout=striped
  rm -rf "$work"
  mkdir -p "$work"
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes"
  local drv=("$JAVA" -Xmx3g --add-opens java.base/java.lang=ALL-UNNAMED -Dhadoop.root.logger=WARN,console
    -Dhadoop.home.dir="$CLUSTER_DIR/hadoop" -cp "$cp" org.pocache.experiments.paper.MultiProcessReads)
  for k in ${ks//,/ }; do
    local policy="RS-$k-2-1024k"
    [[ $k == 6 ]] && policy=RS-6-3-1024k
    [[ $k == 10 ]] && policy=RS-10-4-1024k
    if ! cl_alive namenode || [[ $(cl_get code_k) != "$k" || $(cl_get datanodes) -lt $datanodes \
        || $(cl_get pocache) != on ]]; then
      say "experiment $id: (re)starting the cluster with $datanodes DataNodes and dfs.pocache.code.k = $k"
      cl_alive namenode && cl_down
      cl_up --datanodes "$datanodes" --yarn off --set "dfs.pocache.code.k=$k"
    fi
    cl_straggler off >/dev/null
    local common=(--layout "$layout" --k "$k" --block-mib "$block" --files "$files" --dir "/ex/$id/k$k"
      --straggler-host "$CL_NET.1.2" --policy "$policy")
    say "experiment $id: k = $k: writing and caching"
    "${drv[@]}" prepare "${common[@]}" || die "experiment $id: prepare failed at k = $k"
    local on="'$POCACHE_HOME/scripts/pocache' cluster straggler on 1 --factor $factor >/dev/null"
    local off="'$POCACHE_HOME/scripts/pocache' cluster straggler off >/dev/null"
    local group groups=(main)
    [[ $id == exp1 ]] && groups+=(hedged)
    for group in "${groups[@]}"; do
      say "experiment $id: k = $k: reads ($group modes) without, then with DataNode 1 ($CL_NET.1.2) at 1/$factor"
      if ! "${drv[@]}" read "${common[@]}" --modes "$group" --repeats "$repeats" --json "$work/k$k-$group.json" \
          --straggler-on "$on" --straggler-off "$off"; then
        cl_straggler off >/dev/null
        die "experiment $id: reads failed at k = $k"
      fi
    done
  done
  "${drv[@]}" summarize --id "$id" --out "$json" --plot "$plot" --factor "$factor" --seconds $((SECONDS - t0)) \
    --command "scripts/pocache experiment $id --cluster multiproc --k $ks" "$work"/k*.json
}

# Experiment 5 on the multi-process cluster: the cluster runs with dfs.pocache.code.k = 4 and
# a cache of --cache-blocks blocks (restarted when it does not); MultiProcessClients writes the
# files, shapes DataNode 1 to 1/factor, and runs every client count and mode as client JVMs.
ex_multi_client_mp() { # options
  local clients=4,8,12 files=100 reads=50 block=1 factor=10 cacheblocks=40 datanodes=14 json="" plot="" listed=120
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --cluster) [[ $2 == multiproc ]] || die "experiment exp5: --cluster must be multiproc here, got '$2'"; shift 2 ;;
      --clients) clients=$2; shift 2 ;;
      --files) files=$2; shift 2 ;;
      --reads) reads=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --cache-blocks) cacheblocks=$2; shift 2 ;;
      --datanodes) datanodes=$2; shift 2 ;;
      --listed-within-s) listed=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      --plot) plot=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment exp5 --cluster multiproc: unknown option '$1'" ;;
    esac
  done
  [[ "$clients" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "experiment exp5: --clients must be a list like 4,8,12, got '$clients'"
  local v
  for v in "$block" "$cacheblocks" "$datanodes"; do
    [[ "$v" =~ ^[0-9]+$ && $v -ge 1 ]] || die "experiment exp5: --block-mib, --cache-blocks and --datanodes must be whole numbers >= 1, got '$v'"
  done
  ((datanodes >= 6)) || die "experiment exp5: the striped rows (RS-4-2) need 6 DataNodes, --datanodes is $datanodes"
  ex_cluster_with_cache exp5 "$datanodes" "$((cacheblocks * block * 1048576))" "$cacheblocks"
  json=${json:-$POCACHE_HOME/docs/results/experiments/exp5-mp.json}
  plot=${plot:-${json%.json}.png}
  # DataPattern (testkit) checks the clients' bytes; everything else is the installed cluster's.
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes:$POCACHE_HOME/testkit/target/classes"
  "$JAVA" -Xmx2g --add-opens java.base/java.lang=ALL-UNNAMED -Dhadoop.root.logger=WARN,console \
    -Dhadoop.home.dir="$CLUSTER_DIR/hadoop" -cp "$cp" org.pocache.experiments.paper.MultiProcessClients \
    --clients "$clients" --files "$files" --reads "$reads" --block-mib "$block" --factor "$factor" \
    --listed-within-s "$listed" --dir /ex/exp5 --straggler-host "$CL_NET.1.2" \
    --straggler-on "'$POCACHE_HOME/scripts/pocache' cluster straggler on 1 --factor $factor >/dev/null" \
    --straggler-off "'$POCACHE_HOME/scripts/pocache' cluster straggler off >/dev/null" \
    --straggler-sent "ip netns exec pocache-dn1 tc -s qdisc show dev pcdn1g | awk '/Sent/ {print \$2; exit}'" \
    --json "$json" --plot "$plot" \
    --command "scripts/pocache experiment exp5 --cluster multiproc --clients $clients --files $files --reads $reads" \
    || { cl_straggler off >/dev/null; die "experiment exp5: the multi-process run failed"; }
}

# Experiment 16 on the multi-process cluster: the cluster runs with dfs.pocache.code.k = 4 and a
# cache of --cache-blocks blocks (restarted when it does not); MultiProcessNatural writes the
# files and, while one client JVM reads, makes DataNodes slow and fast again at random (tc).
ex_natural_mp() { # options
  local files=150 reads=2000 block=1 cacheblocks=60 datanodes=14 epoch=8 p=0.1 json="" plot=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --cluster) [[ $2 == multiproc ]] || die "experiment exp16: --cluster must be multiproc here, got '$2'"; shift 2 ;;
      --files) files=$2; shift 2 ;;
      --reads) reads=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --cache-blocks) cacheblocks=$2; shift 2 ;;
      --datanodes) datanodes=$2; shift 2 ;;
      --epoch-s) epoch=$2; shift 2 ;;
      --p) p=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      --plot) plot=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment exp16 --cluster multiproc: unknown option '$1'" ;;
    esac
  done
  local v
  for v in "$block" "$cacheblocks" "$datanodes"; do
    [[ "$v" =~ ^[0-9]+$ && $v -ge 1 ]] || die "experiment exp16: --block-mib, --cache-blocks and --datanodes must be whole numbers >= 1, got '$v'"
  done
  ((datanodes >= 6)) || die "experiment exp16: the striped rows (RS-4-2) need 6 DataNodes, --datanodes is $datanodes"
  ex_cluster_with_cache exp16 "$datanodes" "$((cacheblocks * block * 1048576))" "$cacheblocks"
  json=${json:-$POCACHE_HOME/docs/results/experiments/exp16-mp.json}
  plot=${plot:-${json%.json}.png}
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes:$POCACHE_HOME/testkit/target/classes"
  "$JAVA" -Xmx2g --add-opens java.base/java.lang=ALL-UNNAMED -Dhadoop.root.logger=WARN,console \
    -Dhadoop.home.dir="$CLUSTER_DIR/hadoop" -cp "$cp" org.pocache.experiments.paper.MultiProcessNatural \
    --files "$files" --reads "$reads" --block-mib "$block" --epoch-s "$epoch" --p "$p" --dir /ex/exp16 \
    --host-format "$CL_NET.%d.2" \
    --straggler-on "'$POCACHE_HOME/scripts/pocache' cluster straggler on {dn} --factor {factor} >/dev/null 2>&1" \
    --straggler-off "'$POCACHE_HOME/scripts/pocache' cluster straggler off {dn} >/dev/null 2>&1" \
    --json "$json" --plot "$plot" \
    --command "scripts/pocache experiment exp16 --cluster multiproc --files $files --reads $reads" \
    || { cl_straggler off >/dev/null; die "experiment exp16: the multi-process run failed"; }
}

# The cluster up with $2 DataNodes (or more, as stored), dfs.pocache.code.k = 4, a cache of
# $3 bytes ($4 blocks) and any further key=value given, restarted unless it already runs so.
ex_cluster_with_cache() { # id, datanodes, capacity bytes, cache blocks, [key=value...]
  local id=$1 datanodes capacity=$3 blocks=$4 kv restart=no sets=()
  datanodes=$(ex_at_least_stored "$2")
  shift 4
  for kv in "dfs.pocache.cache.capacity.bytes=$capacity" "$@"; do
    sets+=(--set "$kv")
    grep -q "<name>${kv%%=*}</name><value>${kv#*=}</value>" "$CL_CONF/hdfs-site.xml" 2>/dev/null || restart=yes
  done
  if [[ $restart == yes ]] || ! cl_alive namenode || [[ $(cl_get code_k) != 4 \
      || $(cl_get datanodes) -lt $datanodes || $(cl_get pocache) != on ]]; then
    say "experiment $id: (re)starting the cluster with $datanodes DataNodes, dfs.pocache.code.k = 4 and a cache of $blocks blocks${*:+ ($*)}"
    cl_alive namenode && cl_down
    cl_up --datanodes "$datanodes" --yarn off --set dfs.pocache.code.k=4 "${sets[@]}"
  fi
  cl_straggler off >/dev/null
}

# Experiment 14 on the multi-process cluster: per cache size the cluster runs with that cache
# and CSAC+LFU (restarted), MultiProcessStrategies writes the files where the plan puts them,
# shapes DataNode 1 and reads them by every strategy; the sizes' runs are then merged.
ex_strategies_mp() { # options
  local sizes=40,60,80 files=100 reads=500 block=1 factor=10 datanodes=14 listed=120 json="" plot=""
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --cluster) [[ $2 == multiproc ]] || die "experiment exp14: --cluster must be multiproc here, got '$2'"; shift 2 ;;
      --cache-blocks) sizes=$2; shift 2 ;;
      --files) files=$2; shift 2 ;;
      --reads) reads=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --datanodes) datanodes=$2; shift 2 ;;
      --listed-within-s) listed=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      --plot) plot=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment exp14 --cluster multiproc: unknown option '$1'" ;;
    esac
  done
  [[ "$sizes" =~ ^[0-9]+(,[0-9]+)*$ ]] || die "experiment exp14: --cache-blocks must be a list like 40,60,80, got '$sizes'"
  local v
  for v in "$block" "$datanodes"; do
    [[ "$v" =~ ^[0-9]+$ && $v -ge 1 ]] || die "experiment exp14: --block-mib and --datanodes must be whole numbers >= 1, got '$v'"
  done
  ((datanodes >= 5)) || die "experiment exp14: OR's three replicas off the straggler need 5 DataNodes or more, --datanodes is $datanodes"
  json=${json:-$POCACHE_HOME/docs/results/experiments/exp14-mp.json}
  plot=${plot:-${json%.json}.png}
  local work="$CLUSTER_DIR/results/exp14-mp" t0=$SECONDS size
  rm -rf "$work"
  mkdir -p "$work"
  # DC1 and DC2 reach redis-server with the experiments' Redis client (Jedis and what it needs).
  local jedis
  jedis=$(tr ':' '\n' <"$POCACHE_HOME/experiments/target/classpath.txt" \
    | grep -E '/(jedis|commons-pool2|json|gson)-[^/]*\.jar$' | paste -sd:)
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes:$POCACHE_HOME/testkit/target/classes:$jedis"
  local drv=("$JAVA" -Xmx2g --add-opens java.base/java.lang=ALL-UNNAMED -Dhadoop.root.logger=WARN,console
    -Dhadoop.home.dir="$CLUSTER_DIR/hadoop" -cp "$cp" org.pocache.experiments.paper.MultiProcessStrategies)
  for size in ${sizes//,/ }; do
    ex_cluster_with_cache exp14 "$datanodes" "$((size * block * 1048576))" "$size" dfs.pocache.csac.eviction=lfu
    say "experiment exp14: cache $size blocks: SR, DC1, DC2, OR and POCache, DataNode 1 at 1/$factor"
    "${drv[@]}" run --files "$files" --reads "$reads" --block-mib "$block" --factor "$factor" \
      --listed-within-s "$listed" --dir /ex/exp14 \
      --host-format "$CL_NET.%d.2" \
      --straggler-on "'$POCACHE_HOME/scripts/pocache' cluster straggler on 1 --factor $factor >/dev/null" \
      --straggler-off "'$POCACHE_HOME/scripts/pocache' cluster straggler off >/dev/null" \
      --json "$work/cache$size.json" \
      || { cl_straggler off >/dev/null; die "experiment exp14: the run with a cache of $size blocks failed"; }
  done
  "${drv[@]}" summarize --out "$json" --plot "$plot" --seconds $((SECONDS - t0)) \
    --command "scripts/pocache experiment exp14 --cluster multiproc --cache-blocks $sizes --files $files --reads $reads" \
    "$work"/cache*.json
}

# `experiment ha`: on a cluster started with --ha, a wordcount and a teragen through stock
# HDFS and through POCache, each with `hdfs haadmin -failover` while it runs; without and
# with a straggler. Outputs must be identical across modes; the new active NameNode's Manager
# must list the input's parity cached before the failover.
ex_ha() {
  local repeats=2 input=128 block=16 factor=10 rate=8 after=15 straggler=auto
  local json="$POCACHE_HOME/docs/results/cluster/ha.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --repeats) repeats=$2; shift 2 ;;
      --input-mib) input=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --failover-after) after=$2; shift 2 ;;
      --straggler) straggler=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment ha: unknown option '$1'" ;;
    esac
  done
  [[ "$repeats" =~ ^[1-9][0-9]*$ ]] || die "experiment ha: --repeats must be a positive integer, got '$repeats'"
  [[ "$input" =~ ^[1-9][0-9]*$ && "$block" =~ ^[1-9][0-9]*$ ]] || die "experiment ha: --input-mib and --block-mib must be positive integers"
  [[ "$after" =~ ^[0-9]+$ ]] || die "experiment ha: --failover-after must be seconds, got '$after'"
  cl_valid_rate "$rate" || die "experiment ha: --rate must be MiB/s or none, got '$rate'"
  ex_require_cluster
  [[ $(cl_get ha) == on ]] || die "experiment ha: the cluster was not started with --ha (scripts/pocache cluster up --ha)"
  local ex bs=$((block * 1048576)) work="$CLUSTER_DIR/results/ha" rows="$CLUSTER_DIR/results/ha.rows"
  ex=$(EXAMPLES_JAR)
  mkdir -p "$work"
  : >"$rows"
  cl_set_rate "$rate"
  if ! cl_hdfs dfs -test -e /ex/ha-wc-in 2>/dev/null; then
    python3 "$POCACHE_HOME/scripts/lib/words.py" "$((input * 1048576))" "$work/words.txt"
    cl_hdfs dfs -mkdir -p /ex
    cl_hdfs dfs -D dfs.blocksize=$bs -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/words.txt" /ex/ha-wc-in >/dev/null
  fi
  ex_ensure_cached /ex/ha-wc-in
  [[ $straggler == auto ]] && straggler=$(ex_pick_straggler /ex/ha-wc-in)
  straggler=${straggler:-1}
  say "experiment ha: DataNodes $(cl_rate_words "$rate"); wordcount of $input MiB in $block MiB blocks and a teragen of" \
    "$input MiB, stock vs POCache, each with a NameNode failover ${after} s after it starts; straggler: DataNode $straggler at 1/$factor"
  local state r mode fs out log ms digest failed ok from to cached hits j
  for state in none straggler; do
    cl_straggler off >/dev/null
    [[ $state == straggler ]] && cl_straggler on "$straggler" --factor "$factor" >/dev/null
    for ((r = 1; r <= repeats; r++)); do
      local order=(vanilla pocache)
      ((r % 2 == 0)) && order=(pocache vanilla)
      for mode in "${order[@]}"; do
        for j in wordcount teragen; do
          fs=$VANILLA_FS
          [[ $mode == pocache ]] && fs=$POCACHE_FS
          out=/ex/ha-out-$j-$mode
          log="$work/$j-$state-$mode-$r.log"
          cl_hdfs dfs -rm -r -f -skipTrash "$out" >/dev/null 2>&1 || true
          from=$(cl_ha_active || echo none)
          (sleep "$after"; cl_failover) >"$log.failover" 2>&1 &
          local fpid=$!
          case "$j" in
            wordcount) ms=$(ex_job "$fs" "$log" "$ex" wordcount /ex/ha-wc-in "$out") ;;
            teragen) ms=$(ex_job "$fs" "$log" "$ex" teragen -D dfs.blocksize=$bs -D mapreduce.job.maps=4 \
                $((input * 1048576 / 100)) "$out") ;;
          esac
          wait "$fpid" || true
          to=$(cl_ha_active || echo none)
          ok=no
          grep -q "failed over from" "$log.failover" && ((after * 1000 < ms)) && ok=yes
          [[ $ok == yes ]] || say "experiment ha: $j ($mode, $state, run $r) ended before the failover ($ms ms); its row says so"
          failed=$(awk -F= '/Failed (map|reduce) tasks=/ {n += $2} END {print n + 0}' "$log")
          digest=$(ex_digest "$out" "$j")
          local ref
          ref=$(awk -v j="$j" '$1 == j {print $6; exit}' "$rows")
          if [[ -n "$ref" && "$ref" != "$digest" ]]; then
            die "experiment ha: $j output through $mode ($state) differs from the first run's"
          fi
          cached=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -ls /ex/ha-wc-in 2>/dev/null \
            | grep -c '^CACHED' || true)
          hits=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -report 2>/dev/null \
            | awk '/^ *Hits:/ {print $2}')
          printf '%s %s %s %d %d %s %s %s %s %d %s %s\n' "$j" "$state" "$mode" "$r" "$ms" "$digest" "$from" "$to" "$ok" \
            "$failed" "$cached" "${hits:-0}" >>"$rows"
          printf 'pocache: %-9s %-9s %-7s run %d: %6d ms, NameNode %s -> %s during the job: %s, failed tasks %d, input cached on the active: %s\n' \
            "$j" "$state" "$mode" "$r" "$ms" "$from" "$to" "$ok" "$failed" "$cached" >&2
        done
      done
    done
  done
  cl_straggler off >/dev/null
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" ha "$rows" "$json" "$straggler" "$factor" "$input" "$block" "$rate" \
    "$after"
}

# A rolling restart under load: every DataNode restarted in turn as HDFS's rolling upgrade
# does (cluster restart all), then with --ha the standby NameNode, a failover and the other
# one, while a reader and a writer run (RollingLoad); once through stock HDFS and once
# through POCache per run, each on a restart of its own. Every operation is logged and
# every byte checked; summarize.py rolling sorts the reads by whether they met the
# DataNode being restarted.
ex_rolling() {
  local runs=1 settle=10 warm=20 rate="" nice=19 json="$POCACHE_HOME/docs/results/cluster/rolling-restart.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --runs) runs=$2; shift 2 ;;
      --restart-nice) nice=$2; shift 2 ;;
      --settle) settle=$2; shift 2 ;;
      --warm) warm=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment rolling-restart: unknown option '$1'" ;;
    esac
  done
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "experiment rolling-restart: --runs must be a positive integer, got '$runs'"
  [[ "$settle" =~ ^[0-9]+$ && "$warm" =~ ^[0-9]+$ ]] || die "experiment rolling-restart: --settle and --warm are seconds"
  [[ "$nice" =~ ^[0-9]+$ && $nice -le 19 ]] || die "experiment rolling-restart: --restart-nice must be 0-19, got '$nice'"
  # What a restart starts (the daemon's JVM until it is back, the admin commands) runs at
  # this niceness: on a cluster it runs on the restarted node, not on the readers' cores.
  export POCACHE_RESTART_NICE=$nice
  ex_require_cluster
  [[ $(cl_get pocache) == on ]] || die "experiment rolling-restart: the cluster runs without POCache (cluster up --pocache on)"
  if [[ -n $rate ]]; then
    cl_valid_rate "$rate" || die "experiment rolling-restart: --rate must be MiB/s or none, got '$rate'"
    cl_set_rate "$rate"
  fi
  rate=$(cl_get rate)
  local work="$CLUSTER_DIR/results/rolling" cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes"
  local java=("$JAVA" -Xmx1g --add-opens java.base/java.lang=ALL-UNNAMED -Dhadoop.root.logger=WARN,console
    "${CL_OPENS[@]}" -cp "$cp" org.pocache.experiments.cluster.RollingLoad)
  mkdir -p "$work"
  cl_straggler off >/dev/null
  HADOOP_CONF_DIR=$CL_CONF "${java[@]}" prepare --dir /ex/rolling/data >/dev/null 2>"$work/prepare.err" \
    || die "experiment rolling-restart: writing the files failed; see $work/prepare.err"
  ex_ensure_cached /ex/rolling/data
  say "experiment rolling-restart: DataNodes $(cl_rate_words "$rate"); $runs run(s) of a rolling restart under a" \
    "reader and a writer, stock HDFS and POCache each; ${settle} s between restarts"
  local r mode specs=()
  for ((r = 1; r <= runs; r++)); do
    local order=(vanilla pocache)
    ((r % 2 == 0)) && order=(pocache vanilla)
    for mode in "${order[@]}"; do
      local ops="$work/$mode-$r.ops" events="$work/$mode-$r.events" stop="$work/$mode-$r.stop" lp rc=0
      rm -f "$stop"
      : >"$events"
      HADOOP_CONF_DIR=$CL_CONF "${java[@]}" run --dir /ex/rolling/data --mode "$mode" --stop-file "$stop" \
        --log "$ops" >"$work/$mode-$r.out" 2>&1 &
      lp=$!
      sleep "$warm"
      say "experiment rolling-restart: run $r, $mode: restarting every DataNode$([[ $(cl_get ha) == on ]] && echo ", then the NameNodes")"
      cl_rolling_restart "$settle" "$events"
      sleep "$warm"
      touch "$stop"
      wait "$lp" || rc=$?
      ((rc == 0)) || say "experiment rolling-restart: the $mode load ended with status $rc (3: operations still running; see $ops)"
      specs+=("$mode:$r:$ops:$events")
    done
  done
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" rolling "$json" "$rate" "$settle" "$HADOOP_VERSION" \
    "$(cl_get ha)" "${specs[@]}"
}

# --federation: the same path in both nameservices, other bytes in each, written and read
# through the clients' ViewFs mount with POCache; each nameservice's Manager must cache
# its own file and count the reads as hits, and Redis holds each one's parity under its
# own prefix.
ex_federation() {
  local mib=64 block=16 json="$POCACHE_HOME/docs/results/cluster/federation.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --mib) mib=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      *) ex_usage >&2; die "experiment federation: unknown option '$1'" ;;
    esac
  done
  [[ "$mib" =~ ^[1-9][0-9]*$ && "$block" =~ ^[1-9][0-9]*$ ]] || die "experiment federation: --mib and --block-mib must be positive integers"
  ex_require_cluster
  [[ $CL_FED == on ]] || die "experiment federation: the cluster was not started with --federation (scripts/pocache cluster up --federation)"
  [[ $(cl_get pocache) == on ]] || die "experiment federation: the cluster runs without POCache"
  local work="$CLUSTER_DIR/results/federation" rows="$CLUSTER_DIR/results/federation.rows" jar
  jar=$(cl_dropin_jar)
  mkdir -p "$work"
  : >"$rows"
  local ns port t listing hits0 hits1 want got keys
  for ns in ns1 ns2; do
    port=$CL_NN_PORT
    [[ $ns == ns2 ]] && port=$CL_FED_NN2_PORT
    head -c $((mib << 20)) /dev/urandom >"$work/$ns.bin"
    cl_hdfs dfs -mkdir -p "/$ns/ex/fed" >/dev/null
    cl_hdfs dfs -D dfs.blocksize=$((block << 20)) -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/$ns.bin" \
      "/$ns/ex/fed/data.bin" >/dev/null || die "experiment federation: writing /$ns/ex/fed/data.bin failed"
  done
  for ns in ns1 ns2; do
    port=$CL_NN_PORT
    [[ $ns == ns2 ]] && port=$CL_FED_NN2_PORT
    for t in $(seq 1 60); do
      listing=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$jar" -fs "hdfs://127.0.0.1:$port" -ls /ex/fed 2>/dev/null || true)
      grep -qE '^CACHED .* /ex/fed/data.bin$' <<<"$listing" && break
      sleep 1
    done
    hits0=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$jar" -fs "hdfs://127.0.0.1:$port" -report 2>/dev/null \
      | awk '/^ *Hits:/ {print $2}')
    want=$(md5sum <"$work/$ns.bin" | cut -d' ' -f1)
    got=$(cl_hdfs dfs -D fs.hdfs.impl=$POCACHE_FS -cat "/$ns/ex/fed/data.bin" | md5sum | cut -d' ' -f1)
    hits1=$(cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$jar" -fs "hdfs://127.0.0.1:$port" -report 2>/dev/null \
      | awk '/^ *Hits:/ {print $2}')
    keys=$(redis-cli -p "$CL_REDIS_PORT" --scan --pattern "pocache:$ns:*" 2>/dev/null | wc -l)
    printf '%s %s %s %s %s %s\n' "$ns" "$(grep -cE '^CACHED .* /ex/fed/data.bin$' <<<"$listing")" "${hits0:-0}" \
      "${hits1:-0}" "$([[ $want == "$got" ]] && echo yes || echo no)" "$keys" >>"$rows"
    say "experiment federation: /$ns/ex/fed/data.bin: cached by $ns's Manager: $(grep -cE '^CACHED .* /ex/fed/data.bin$' <<<"$listing"), hits ${hits0:-0} -> ${hits1:-0}, bytes right: $([[ $want == "$got" ]] && echo yes || echo NO), Redis keys under pocache:$ns: $keys"
  done
  local other
  other=$(redis-cli -p "$CL_REDIS_PORT" --scan --pattern 'pocache:*' 2>/dev/null | grep -cvE '^pocache:ns[12]:' || true)
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" federation "$rows" "$json" "$mib" "$block" "$other" "$HADOOP_VERSION"
}

cmd_experiment() {
  local name=${1:-}
  [[ $# -gt 0 ]] && shift
  check_jdk
  case "$name" in
    mapreduce) ex_mapreduce "$@" ;;
    reads) stale && build; ex_reads "$@" ;;
    spark) ex_spark "$@" ;;
    ha) ex_ha "$@" ;;
    rolling-restart) stale && build; ex_rolling "$@" ;;
    federation) ex_federation "$@" ;;
    alternatives) ex_alternatives "$@" ;;
    stragglers) stale && build; ex_stragglers "$@" ;;
    plot) ex_plot "$@" ;;
    exp1|exp2|exp5|exp14|exp16)
      if [[ " $* " == *" --cluster multiproc "* ]]; then
        stale && build
        case $name in
          exp5) ex_multi_client_mp "$@" ;;
          exp14) ex_strategies_mp "$@" ;;
          exp16) ex_natural_mp "$@" ;;
          *) ex_single_client_mp "$name" "$@" ;;
        esac
        return
      fi
      check_maven; check_native_deps
      cd "$POCACHE_HOME" && DRIVER_HEAP=6g run_driver org.pocache.experiments.paper.PaperExperiments "$name" "$@" ;;
    exp[0-9]*|two-stragglers|intermittent|cache-bytes|late-binding|all)
      # The paper's experiments on the in-process cluster; JSON and PNG under docs/results/experiments.
      check_maven; check_native_deps
      # Every cluster, its DataNodes and the reads run in this JVM: 64 MiB blocks read whole
      # with 16-64 MiB subblocks need more than the drivers' usual 2 GiB.
      cd "$POCACHE_HOME" && DRIVER_HEAP=6g run_driver org.pocache.experiments.paper.PaperExperiments "$name" "$@" ;;
    ""|help|--help) ex_usage ;;
    *) ex_usage >&2; die "experiment: unknown experiment '$name'" ;;
  esac
}

# --- bench read-cpu -------------------------------------------------------------

# Four 64 MiB files in 16 MiB blocks written through POCache (cached on write) under
# /ex/cpu/cached, and four 64 MiB files of one block each under /ex/cpu/plain (a file of
# fewer than dfs.pocache.cache.read.min.blocks blocks is not cached while nothing is slow).
bc_files() {
  local work=$1 i
  if ! cl_hdfs dfs -test -d /ex/cpu/cached 2>/dev/null; then
    cl_hdfs dfs -mkdir -p /ex/cpu/cached /ex/cpu/plain
    for i in 1 2 3 4; do
      head -c $((64 << 20)) /dev/urandom >"$work/f$i.bin"
      cl_hdfs dfs -D dfs.blocksize=$((16 << 20)) -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/f$i.bin" "/ex/cpu/cached/f$i.bin" >/dev/null
      cl_hdfs dfs -D dfs.blocksize=$((64 << 20)) -D fs.hdfs.impl=$VANILLA_FS -put -f "$work/f$i.bin" "/ex/cpu/plain/f$i.bin" >/dev/null
      rm -f "$work/f$i.bin"
    done
  fi
}

# Waits up to 60 s (reading the cached files through POCache meanwhile) until the Manager
# lists DataNode $1; prints "yes" or "no".
bc_wait_listed() {
  local ip="$CL_NET.$1.2" t
  for t in $(seq 1 30); do
    if cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -stragglers 2>/dev/null | grep -q "$ip"; then
      echo yes; return 0
    fi
    cl_hdfs dfs -D fs.hdfs.impl=$POCACHE_FS -cat '/ex/cpu/cached/*' >/dev/null 2>&1 || true
  done
  echo no
}

# Drops any parity the Manager holds for /ex/cpu/plain (a straggler phase may have filled it).
bc_evict_plain() {
  local f
  for f in 1 2 3 4; do
    cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -evict "/ex/cpu/plain/f$f.bin" >/dev/null 2>&1 || true
  done
}

# async-profiler's agent (tools.profiler:async-profiler on Maven Central: native frames and
# JIT threads too), fetched once; prints its path, or nothing (the profiles are then JFR's).
bc_async_profiler() {
  local dir="$CLUSTER_DIR/tools/async-profiler" v=3.0
  if [[ ! -s $dir/libasyncProfiler.so ]]; then
    mkdir -p "$dir"
    mvn -B -ntp -q dependency:copy -Dartifact=tools.profiler:async-profiler:$v -DoutputDirectory="$dir" \
      >"$dir/fetch.log" 2>&1 || return 0
    python3 - "$dir/async-profiler-$v.jar" "$dir/libasyncProfiler.so" <<'PY' || return 0
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[2], "wb") as out:
    out.write(z.read("linux-x64/libasyncProfiler.so"))
PY
  fi
  echo "$dir/libasyncProfiler.so"
}

# One profiled JVM per mode and pattern: the top frames of each in DIR/<phase>-<mode>-<pattern>.txt.
bc_profiles() { # phase, dir, work, classpath, rounds, full-stripe MiB
  local phase=$1 dir=$2 work=$3 cp=$4 rounds=$5 stripe=$6 agent mode pat prof opts
  mkdir -p "$dir"
  agent=$(bc_async_profiler)
  local patterns=(seq4k seq64k seq1m bytebuffer pread pread4m)
  [[ $phase == none ]] && patterns+=(write write-stripe)
  for mode in stock pocache; do
    for pat in "${patterns[@]}"; do
      local tool=JFR
      [[ -n $agent ]] && tool=async-profiler
      say "bench read-cpu: $phase: profiling $mode, $pat ($tool)"
      if [[ -n $agent ]]; then
        prof="$work/$phase-$mode-$pat.collapsed"
        opts=(-agentpath:"$agent"=start,event=itimer,interval=1ms,file="$prof",collapsed)
      else
        prof="$work/$phase-$mode-$pat.jfr"
        opts=(-XX:StartFlightRecording=filename="$prof",settings=profile)
      fi
      local what=(--dir /ex/cpu/cached --patterns "$pat")
      [[ $pat == write ]] && what=(--write-mib 256)
      [[ $pat == write-stripe ]] && what=(--write-stripe-mib "$stripe")
      "$JAVA" -Xmx2g -Dhadoop.root.logger=WARN,console -cp "$cp" "${opts[@]}" \
        org.pocache.experiments.cluster.ReadCpu --mode "$mode" "${what[@]}" --rounds "$rounds" \
        >"$work/$phase-$mode-$pat-profile.log" 2>&1 \
        || die "bench read-cpu: the profiled $mode run failed; see $work/$phase-$mode-$pat-profile.log"
      python3 "$POCACHE_HOME/scripts/lib/jfrtop.py" "$prof" >"$dir/$phase-$mode-$pat.txt" \
        || say "bench read-cpu: could not summarize $prof"
    done
  done
}

bench_read_cpu() {
  local runs=5 rounds=3 factor=10 straggler=auto phases=none,straggler write=256 profile=""
  local json="$POCACHE_HOME/docs/results/cluster/read-cpu.json"
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --runs) runs=$2; shift 2 ;;
      --rounds) rounds=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --straggler) straggler=$2; shift 2 ;;
      --phases) phases=$2; shift 2 ;;
      --write-mib) write=$2; shift 2 ;;
      --profile) profile=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      --help|-h)
        cat <<'HELP'
Usage: pocache bench read-cpu [--runs N] [--rounds R] [--phases none,straggler] [--straggler i|auto]
                              [--factor F] [--write-mib M] [--profile DIR] [--json F]
On the running multi-process cluster (`pocache cluster up`): the client CPU (the reading
JVM's process CPU, user + system) per GiB read, stock HDFS against POCache at its shipped
defaults, on the same files: 4 KiB, 64 KiB and 1 MiB read() calls, read(ByteBuffer), whole-file
and 4 MiB positional reads, over files with cached parity (/ex/cpu/cached) and without
(/ex/cpu/plain, without a straggler only: one is admitted and filled with one); then CPU per GiB
written (4 files of M MiB, default 256, and 4 files of one full stripe, k blocks; POCache at its
default protection, integrity; --write-mib 0 skips both). N runs (default 5), each one stock and one POCache JVM in
turns, each measuring R rounds (default 3) of at least 512 MiB after at least two such rounds to warm up
(and on until the JIT compiler threads take under 5% of a round's CPU, at most 10); per phase (no straggler, and
DataNode i at 1/F of the cluster's rate) the medians over runs, their min and max, and
POCache/stock. --profile DIR: per phase, mode and pattern one more JVM under async-profiler
(fetched from Maven Central; JFR if it cannot be), and its top frames in DIR. JSON in F (default docs/results/cluster/read-cpu.json).
HELP
        return 0 ;;
      *) die "bench read-cpu: unknown option '$1' (--help)" ;;
    esac
  done
  [[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "bench read-cpu: --runs must be a positive integer, got '$runs'"
  [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "bench read-cpu: --rounds must be a positive integer, got '$rounds'"
  [[ "$write" =~ ^[0-9]+$ ]] || die "bench read-cpu: --write-mib must be a whole number of MiB, got '$write'"
  [[ "$factor" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "bench read-cpu: --factor must be a number, got '$factor'"
  [[ "$straggler" == auto || "$straggler" =~ ^[1-9][0-9]*$ ]] \
    || die "bench read-cpu: --straggler must be a DataNode number or auto, got '$straggler'"
  local p
  for p in ${phases//,/ }; do
    [[ $p == none || $p == straggler ]] || die "bench read-cpu: --phases takes none and/or straggler, got '$p'"
  done
  ex_require_cluster
  local work="$CLUSTER_DIR/results/read-cpu"
  rm -rf "$work"; mkdir -p "$work"
  bc_files "$work"
  ex_ensure_cached /ex/cpu/cached
  local dn=$straggler
  [[ $dn == auto ]] && dn=$(ex_pick_straggler /ex/cpu/cached)
  local cp="$CL_CONF:$CL_LIB/*:$POCACHE_HOME/experiments/target/classes"
  # Files of one full stripe too: k blocks of the cluster's block size. A 256 MiB file of
  # 128 MiB blocks is half a stripe, with parity half its size; a full stripe's is 1/k.
  local block stripe
  block=$(cl_java_tool "$CL_CONF" org.apache.hadoop.hdfs.tools.GetConf -confKey dfs.blocksize 2>/dev/null | tail -1 || true)
  [[ $block =~ ^[0-9]+$ ]] || block=$((128 << 20))
  stripe=$(( $(cl_get code_k) * block >> 20 ))
  local phase run mode listed files=()
  cl_straggler off >/dev/null
  for phase in ${phases//,/ }; do
    case "$phase" in
      none) cl_straggler off >/dev/null; listed=- ;;
      straggler)
        cl_straggler on "$dn" --factor "$factor" >/dev/null
        listed=$(bc_wait_listed "$dn")
        say "bench read-cpu: DataNode $dn at 1/$factor; listed by the Manager: $listed" ;;
      *) die "bench read-cpu: --phases takes none and/or straggler, got '$phase'" ;;
    esac
    for ((run = 1; run <= runs; run++)); do
      local order="stock pocache"
      ((run % 2 == 0)) && order="pocache stock"
      for mode in $order; do
        say "bench read-cpu: $phase: run $run of $runs: $mode"
        local opts=(--dir /ex/cpu/cached)
        if [[ $phase == none ]]; then
          # Uncached files stay uncached: with a straggler listed, a read miss of a one-block file is
          # admitted and filled (dfs.pocache.cache.read.min.blocks), so only the no-straggler phase reads them.
          bc_evict_plain
          opts+=(--dir /ex/cpu/plain)
          ((write > 0)) && opts+=(--write-mib "$write" --write-stripe-mib "$stripe")
        fi
        "$JAVA" -Xmx2g -Dhadoop.root.logger=WARN,console -cp "$cp" org.pocache.experiments.cluster.ReadCpu \
          --mode "$mode" "${opts[@]}" --rounds "$rounds" \
          --json "$work/$phase-$mode-$run.json" 2> >(grep -v WARN >&2) || die "bench read-cpu: the $mode run failed"
        files+=("$phase:$mode:$run:$listed:$work/$phase-$mode-$run.json")
      done
    done
    if [[ -n $profile ]]; then
      bc_profiles "$phase" "$profile" "$work" "$cp" "$rounds" "$stripe"
    fi
  done
  cl_straggler off >/dev/null
  mkdir -p "$(dirname "$json")"
  python3 "$POCACHE_HOME/scripts/lib/summarize.py" read-cpu "$json" "$dn" "$factor" "$(cl_get rate)" "${files[@]}"
}
