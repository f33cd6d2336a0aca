# shellcheck shell=bash
#
# `pocache experiment alternatives`: POCache against what an operator with a straggler
# problem would switch on instead, on the same cluster, data and straggler: Hadoop 3.4's
# slow-node features, speculative execution, replication 3 and erasure-coded data.
# Sourced by scripts/pocache after lib/cluster.sh and lib/experiments.sh (ex_job and friends).
#
# The cluster is (re)started by the experiment: Hadoop 3.4.1 by default, at least 9
# DataNodes (RS-6-3 writes 9 internal blocks per block group). Modes that differ only on
# the client (-D on the job's command line) share one start; `slownode` needs the servers'
# keys and runs on a start of its own, last.

ALT_ALL_LAYOUTS=rep1,rep3,rs-6-3,rs-3-2
ALT_ALL_MODES=stock,slownode,speculation,pocache,pocache-spec
ALT_ALL_JOBS=wordcount,sort,terasort,dfsio-read,dfsio-write,sql-scan,sql-agg,sql-join
# Spark runs the SQL jobs in local mode (one JVM, 2 task slots), where it never speculates:
# the speculation modes have no SQL rows.
ALT_SQL_MODES=stock,slownode,pocache

# Every slow-node feature Hadoop 3.4.1 ships (all off in its hdfs-default.xml), with the
# intervals and sample counts lowered so that the NameNode can act within one job:
# DataNodes time their write pipelines' peers and sample their disk I/O, report outliers
# every 10 s; the NameNode collects slow peers every 10 s, puts them last for readers and
# keeps writes off them.
ALT_SLOWNODE_SERVER_KEYS=(
  dfs.namenode.avoid.read.slow.datanode=true
  dfs.namenode.block-placement-policy.exclude-slow-nodes.enabled=true
  dfs.datanode.peer.stats.enabled=true
  dfs.datanode.fileio.profiling.sampling.percentage=100
  dfs.datanode.min.outlier.detection.nodes=3
  dfs.datanode.peer.metrics.min.outlier.detection.samples=50
  dfs.datanode.outliers.report.interval=10s
  dfs.namenode.slowpeer.collect.interval=10s
)
# ... and on the client: hedged reads (positional reads of replicated blocks) after 50 ms
# rather than the shipped 500, and dead-node detection.
ALT_SLOWNODE_CLIENT_KEYS=(
  dfs.client.hedged.read.threadpool.size=8
  dfs.client.hedged.read.threshold.millis=50
  dfs.client.deadnode.detection.enabled=true
)
# RS-6-3 needs all 9 DataNodes of a 9-DataNode cluster for each block group; with the
# NameNode's load check on, a DataNode still closing the last group's stream counts as busy
# and the write fails ("could only be written to 5 of the 6 required nodes").
ALT_CLUSTER_KEYS=(dfs.namenode.redundancy.considerLoad=false)

alt_policy() { case $1 in rs-6-3) echo RS-6-3-1024k ;; rs-3-2) echo RS-3-2-1024k ;; *) echo "" ;; esac; }
alt_replication() { case $1 in rep3) echo 3 ;; *) echo 1 ;; esac; }
alt_data_units() { case $1 in rs-6-3) echo 6 ;; rs-3-2) echo 3 ;; *) echo 0 ;; esac; }
alt_width() { case $1 in rep1) echo 1 ;; rep3) echo 3 ;; rs-6-3) echo 9 ;; rs-3-2) echo 5 ;; esac; }

alt_usage() {
  cat <<'USAGE'
  alternatives [--layouts rep1,rep3,rs-6-3,rs-3-2] [--modes stock,slownode,speculation,pocache,pocache-spec]
               [--jobs wordcount,sort,terasort,dfsio-read,dfsio-write,sql-scan,sql-agg,sql-join]
               [--stragglers none,net,cpu]
               [--repeats N] [--input-mib M] [--block-mib B] [--dfsio-files F] [--rate MiB/s|none]
               [--factor F] [--cpu-factor C] [--hadoop 3.4|3.1] [--datanodes N] [--json F] [--plot F.png]
               [--keep]
      POCache against the alternatives on the same data and straggler: per data layout
      (replication 1 and 3, RS-6-3-1024k and RS-3-2-1024k erasure coding), per mode (stock;
      slownode: every slow-node feature of Hadoop 3.4 on, detection every 10 s, hedged reads
      after 50 ms, dead-node detection; speculation: speculative map and reduce tasks;
      pocache; pocache-spec: POCache and speculation; all but the *spec* modes run without
      speculation), MapReduce jobs (wordcount, sort, terasort, TestDFSIO read and write) and
      Spark SQL over Parquet tables (HiBench's scan, aggregation and join; Spark in local
      mode, which never speculates, so not in the *spec* modes),
      without a straggler and with one (net: its egress at 1/F of the others', default 10;
      cpu: capped at 1/C of a core, default 10), the straggler being the DataNode that holds
      the most of the layout's input. Job times, tasks' time in read calls, outputs checked
      identical across modes, and storage: HDFS's bytes on disk and Redis's parity bytes per
      byte of input. (Re)starts the cluster itself: Hadoop 3.4.1, at least 9 DataNodes
      (--hadoop 3.1: without the slow-node features, which 3.1 lacks). Defaults: every
      layout, mode and job, stragglers none,net, 3 repeats, 64 MiB inputs in 8 MiB blocks,
      4 TestDFSIO files of the same size, unshaped DataNodes. JSON in
      docs/results/cluster/alternatives.json and a PNG beside it. --keep: the runs of the
      layout, mode and job triples not measured now are kept from the JSON (its settings
      must match these), so one layout, mode or job can be measured again without the
      others; each run records its commit.
USAGE
}

# The cluster this experiment needs, started if it is not the one running: the Hadoop line,
# at least n DataNodes, POCache on, the load check off and (phase slownode) the slow-node keys.
alt_cluster() { # phase plain|slownode, line, datanodes, rate
  local phase=$1 line=$2 n=$3 rate=$4 kv restart=no sets=()
  local want=("${ALT_CLUSTER_KEYS[@]}")
  [[ $phase == slownode ]] && want+=("${ALT_SLOWNODE_SERVER_KEYS[@]}")
  n=$(ex_at_least_stored "$n")
  for kv in "${want[@]}"; do
    sets+=(--set "$kv")
    grep -q "<name>${kv%%=*}</name><value>${kv#*=}</value>" "$CL_CONF/hdfs-site.xml" 2>/dev/null || restart=yes
  done
  # The plain phase must not carry the slow-node keys of an earlier start.
  if [[ $phase == plain ]] && grep -q '<name>dfs.namenode.avoid.read.slow.datanode</name><value>true' \
      "$CL_CONF/hdfs-site.xml" 2>/dev/null; then
    restart=yes
  fi
  if [[ $restart == yes ]] || ! cl_alive namenode || [[ $(cl_get hadoop) != "$line" || $(cl_get datanodes) -lt $n \
      || $(cl_get pocache) != on || $(cl_get ha) == on || $(cl_get federation) == on ]]; then
    say "experiment alternatives: (re)starting the cluster: Hadoop $line, $n DataNodes, servers $phase"
    cl_alive namenode && cl_down
    cl_up --hadoop "$line" --datanodes "$n" "${sets[@]}"
  fi
  cl_set_rate "$rate"
}

# TestDFSIO is in hadoop-mapreduce-client-jobclient's tests jar, whose Main-Class (the test
# driver) needs other tests jars: the copy here has no manifest, so RunJar takes the class named.
alt_dfsio_jar() {
  local dir="$CLUSTER_DIR/tools/dfsio-$HADOOP_VERSION" src
  if [[ ! -f "$dir/dfsio.jar" ]]; then
    mkdir -p "$dir"
    mvn_run -f "$POCACHE_HOME/scripts/cluster/pom.xml" dependency:copy \
      -Dartifact="org.apache.hadoop:hadoop-mapreduce-client-jobclient:$HADOOP_VERSION:jar:tests" \
      -DoutputDirectory="$dir" >"$CLUSTER_DIR/logs/dfsio-install.log" 2>&1 \
      || die "experiment alternatives: could not fetch TestDFSIO (hadoop-mapreduce-client-jobclient $HADOOP_VERSION tests jar); see $CLUSTER_DIR/logs/dfsio-install.log"
    src=$(ls "$dir"/hadoop-mapreduce-client-jobclient-*-tests.jar | head -1)
    python3 - "$src" "$dir/dfsio.jar" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as src, zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as out:
    for item in src.infolist():
        if item.filename.startswith("org/apache/hadoop/fs/"):
            out.writestr(item, src.read(item))
PY
  fi
  echo "$dir/dfsio.jar"
}

alt_ec() { cl_java_tool "$CL_CONF" org.apache.hadoop.hdfs.tools.ECAdmin "$@"; }

# A layout's directory /alt/<layout> (its erasure-coding policy set on it, so that every file
# below, the jobs' outputs included, is striped) and its inputs, written through POCache once.
alt_inputs() { # layout, input MiB, block MiB, dfsio files, work dir
  local layout=$1 input=$2 block=$3 files=$4 work=$5 dir=/alt/$1 policy repl bs=$(($3 * 1048576)) ex
  policy=$(alt_policy "$layout")
  repl=$(alt_replication "$layout")
  ex=$(EXAMPLES_JAR)
  cl_hdfs dfs -mkdir -p "$dir" >/dev/null 2>&1
  if [[ -n $policy ]]; then
    alt_ec -enablePolicy -policy "$policy" >/dev/null 2>&1 || true
    alt_ec -setPolicy -path "$dir" -policy "$policy" >"$work/ec-$layout.log" 2>&1 \
      || die "experiment alternatives: could not set $policy on $dir; see $work/ec-$layout.log"
  fi
  local common=(-D dfs.blocksize=$bs -D dfs.replication="$repl")
  local j
  for j in ${ALT_JOBS//,/ }; do
    case "$j" in
      wordcount)
        if ! cl_hdfs dfs -test -e "$dir/wc-in" 2>/dev/null; then
          [[ -f "$work/words.txt" ]] || python3 "$POCACHE_HOME/scripts/lib/words.py" "$((input * 1048576))" "$work/words.txt"
          cl_hdfs dfs "${common[@]}" -D fs.hdfs.impl=$POCACHE_FS -put -f "$work/words.txt" "$dir/wc-in" >/dev/null \
            || die "experiment alternatives: could not write $dir/wc-in"
        fi ;;
      sort)
        cl_hdfs dfs -test -d "$dir/sort-in" 2>/dev/null \
          || ex_job "$POCACHE_FS" "$work/randomwriter-$layout.log" "$ex" randomwriter "${common[@]}" \
            -D mapreduce.randomwriter.totalbytes=$((input * 1048576)) -D mapreduce.randomwriter.bytespermap=$((2 * bs)) \
            "$dir/sort-in" >/dev/null ;;
      terasort)
        cl_hdfs dfs -test -d "$dir/tera-in" 2>/dev/null \
          || ex_job "$POCACHE_FS" "$work/teragen-$layout.log" "$ex" teragen "${common[@]}" \
            -D mapreduce.job.maps=$(((input / block + 1) / 2)) \
            $(((input / block + 1) / 2 * ((2 * bs + 99) / 100))) "$dir/tera-in" >/dev/null ;;
      sql-*)
        if ! cl_hdfs dfs -test -e "$dir/sql/uservisits/_SUCCESS" 2>/dev/null; then
          EX_SPARK_OPTS=(-Dspark.hadoop.dfs.blocksize=$bs -Dspark.hadoop.dfs.replication="$repl")
          ex_spark_job "$POCACHE_FS" "$work/sql-gen-$layout.log" sql-gen "$input" "$dir/sql" >/dev/null
          EX_SPARK_OPTS=()
        fi ;;
      dfsio-read)
        cl_hdfs dfs -test -d "$dir/dfsio/io_data" 2>/dev/null \
          || ex_job "$POCACHE_FS" "$work/dfsio-setup-$layout.log" "$(alt_dfsio_jar)" org.apache.hadoop.fs.TestDFSIO \
            "${common[@]}" -D test.build.data="$dir/dfsio" -write -nrFiles "$files" -size "${input}MB" \
            -resFile "$work/dfsio-setup-$layout.txt" >/dev/null ;;
    esac
  done
}

alt_input_paths() { # layout -> the HDFS paths the layout's read jobs take as input
  local dir=/alt/$1 j
  for j in ${ALT_JOBS//,/ }; do
    case "$j" in
      wordcount) echo "$dir/wc-in" ;;
      sort) echo "$dir/sort-in" ;;
      terasort) echo "$dir/tera-in" ;;
      dfsio-read) echo "$dir/dfsio/io_data" ;;
      sql-*) echo "$dir/sql" ;;
    esac
  done | awk '!seen[$0]++'
}

# When a layout's input for a job was written (its modification time in ms): sort's input
# is random, written again after the cluster lost it, and only runs on the same input are
# held to the same output.
alt_input_stamp() { # layout job
  local path
  path=$(ALT_JOBS=$2 alt_input_paths "$1")
  cl_hdfs dfs -stat %Y "$path" 2>/dev/null || echo -
}

# The DataNode (1-based) holding the most data bytes of a layout's inputs: replicas of
# replicated blocks, data units (not parity) of striped block groups.
alt_pick_straggler() { # layout
  local k p
  k=$(alt_data_units "$1")
  for p in $(alt_input_paths "$1"); do
    cl_hdfs fsck "$p" -files -blocks -locations 2>/dev/null || true
  done | python3 "$POCACHE_HOME/scripts/lib/alternatives.py" pick "$k"
}

# Storage of a layout's inputs: user bytes, HDFS bytes on disk (replicas, EC parity) and the
# parity bytes POCache's Manager lists for them.
alt_storage() { # layout -> "user disk parity"
  local paths du parity
  paths=$(alt_input_paths "$1")
  # shellcheck disable=SC2086 # one argument per path
  du=$(cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS -du -s $paths 2>/dev/null | awk '{u += $1; d += $2} END {printf "%.0f %.0f", u, d}')
  # shellcheck disable=SC2086
  parity=$(for p in $paths; do cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -ls "$p" 2>/dev/null; done \
    | awk '$1 == "CACHED" {s += $3} END {printf "%.0f", s}')
  echo "$du $parity"
}

# One job of one mode; prints "ms digest throughput" (throughput: TestDFSIO's MB/s, else -).
alt_run() { # layout, job, mode, log, input MiB, block MiB, dfsio files
  local layout=$1 job=$2 mode=$3 log=$4 input=$5 block=$6 files=$7 dir=/alt/$1 fs=$TIMED_VANILLA_FS spec=false
  local out ms digest=- tput=- ex repl
  ex=$(EXAMPLES_JAR)
  repl=$(alt_replication "$layout")
  case $mode in pocache|pocache-spec) fs=$TIMED_POCACHE_FS ;; esac
  case $mode in speculation|pocache-spec) spec=true ;; esac
  EX_JOB_OPTS=(-libjars "$ALT_TIMED_JAR" -D mapreduce.map.speculative=$spec -D mapreduce.reduce.speculative=$spec
    -D dfs.replication="$repl")
  local kv
  if [[ $mode == slownode ]]; then
    for kv in "${ALT_SLOWNODE_CLIENT_KEYS[@]}"; do EX_JOB_OPTS+=(-D "$kv"); done
  fi
  out=$dir/out-$job-$mode
  if [[ $job == sql-* ]]; then
    alt_sql_run "$layout" "$job" "$mode" "$log" "$block"
    return
  fi
  cl_hdfs dfs -rm -r -f -skipTrash "$out" "$out-validate" >/dev/null 2>&1 || true
  case "$job" in
    wordcount) ms=$(ex_job "$fs" "$log" "$ex" wordcount "$dir/wc-in" "$out") ;;
    sort) ms=$(ex_job "$fs" "$log" "$ex" sort -outKey org.apache.hadoop.io.BytesWritable \
        -outValue org.apache.hadoop.io.BytesWritable "$dir/sort-in" "$out") ;;
    terasort) ms=$(ex_job "$fs" "$log" "$ex" terasort "$dir/tera-in" "$out") ;;
    dfsio-read) ms=$(ex_job "$fs" "$log" "$(alt_dfsio_jar)" org.apache.hadoop.fs.TestDFSIO -D test.build.data="$dir/dfsio" \
        -read -nrFiles "$files" -size "${input}MB" -resFile "${log%.log}.txt") ;;
    dfsio-write) ms=$(ex_job "$fs" "$log" "$(alt_dfsio_jar)" org.apache.hadoop.fs.TestDFSIO -D dfs.blocksize=$((block * 1048576)) \
        -D test.build.data="$out" -write -nrFiles "$files" -size "${input}MB" -resFile "${log%.log}.txt") ;;
  esac
  EX_JOB_OPTS=()
  ex_fetch_history "$log"
  case "$job" in
    wordcount|sort|terasort)
      if [[ $job == terasort ]]; then
        ex_job "$VANILLA_FS" "$log.validate" "$ex" teravalidate "$out" "$out-validate" >/dev/null
        if cl_hdfs dfs -cat "$out-validate/part-*" 2>/dev/null | grep -q error; then
          die "experiment alternatives: teravalidate found errors in $out"
        fi
      fi
      digest=$(ex_digest "$out" "$job")
      case "$job" in
        wordcount) ex_fetch_read_times "$log" "$dir/wc-in" ;;
        sort) ex_fetch_read_times "$log" "$dir/sort-in" ;;
        terasort) ex_fetch_read_times "$log" "$dir/tera-in" ;;
      esac ;;
    dfsio-read)
      ex_fetch_read_times "$log" "$dir/dfsio/io_data"
      tput=$(awk '/Throughput mb\/sec:/ {print $NF}' "$log" | tail -1) ;;
    dfsio-write)
      tput=$(awk '/Throughput mb\/sec:/ {print $NF}' "$log" | tail -1)
      # What the job wrote must read back whole: every file its -size, through stock HDFS.
      local want=$((input * 1048576)) bad
      bad=$(cl_hdfs dfs -D fs.hdfs.impl=$VANILLA_FS -ls "$out/io_data" 2>/dev/null | awk -v w="$want" '$1 !~ /^d/ && NF >= 8 && $5 != w' | wc -l)
      digest="files-ok"
      [[ $bad == 0 ]] || digest="short-files-$bad" ;;
  esac
  echo "$ms $digest ${tput:--}"
}

# Spark for the cluster's Hadoop line: 3.5 (its own Hadoop 3.3 client, the drop-in for 3.3 and
# later) on Hadoop 3.4 servers, 3.3 on the cluster's own Hadoop 3.1 client jars.
alt_spark_setup() { # line
  local spark=3.5
  [[ $1 == 3.1 ]] && spark=3.3
  read -r SPARK_VERSION SPARK_SCALA SPARK_PROFILE <<<"$(ex_spark_line "$spark")"
  ex_spark_build
  ex_spark_dropin >/dev/null
}

# One SQL job of one mode, Spark in local mode with a task per HDFS block; prints "ms digest -"
# (ms: the job's Spark actions, without the SparkContext's start).
alt_sql_run() { # layout, job, mode, log, block MiB
  local layout=$1 job=$2 mode=$3 log=$4 fs=$VANILLA_FS line kv
  [[ $mode == pocache* ]] && fs=$POCACHE_FS
  EX_SPARK_OPTS=(-Dspark.sql.files.maxPartitionBytes=$(($5 * 1048576))
    -Dspark.hadoop.dfs.replication="$(alt_replication "$layout")")
  if [[ $mode == slownode ]]; then
    for kv in "${ALT_SLOWNODE_CLIENT_KEYS[@]}"; do EX_SPARK_OPTS+=("-Dspark.hadoop.$kv"); done
  fi
  line=$(ex_spark_job "$fs" "$log" "$job" "/alt/$layout/sql" -)
  EX_SPARK_OPTS=()
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["ms"], d["digest"].replace(" ", "_"), "-")' "$line"
}

ex_alternatives() {
  local layouts=$ALT_ALL_LAYOUTS modes=$ALT_ALL_MODES stragglers=none,net repeats=3 input=64 block=8 files=4
  local rate=none factor=10 cpu_factor=10 line=3.4 datanodes=9
  local json="$POCACHE_HOME/docs/results/cluster/alternatives.json" plot="" keep=""
  ALT_JOBS=$ALT_ALL_JOBS
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --layouts) layouts=$2; shift 2 ;;
      --modes) modes=$2; shift 2 ;;
      --jobs) ALT_JOBS=$2; shift 2 ;;
      --stragglers) stragglers=$2; shift 2 ;;
      --repeats) repeats=$2; shift 2 ;;
      --input-mib) input=$2; shift 2 ;;
      --block-mib) block=$2; shift 2 ;;
      --dfsio-files) files=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      --cpu-factor) cpu_factor=$2; shift 2 ;;
      --hadoop) line=$2; shift 2 ;;
      --datanodes) datanodes=$2; shift 2 ;;
      --json) json=$2; shift 2 ;;
      --plot) plot=$2; shift 2 ;;
      --keep) keep=yes; shift ;;
      *) ex_usage >&2; die "experiment alternatives: unknown option '$1'" ;;
    esac
  done
  local x
  for x in ${layouts//,/ }; do [[ ,$ALT_ALL_LAYOUTS, == *,$x,* ]] || die "experiment alternatives: unknown layout '$x' ($ALT_ALL_LAYOUTS)"; done
  for x in ${modes//,/ }; do [[ ,$ALT_ALL_MODES, == *,$x,* ]] || die "experiment alternatives: unknown mode '$x' ($ALT_ALL_MODES)"; done
  for x in ${ALT_JOBS//,/ }; do [[ ,$ALT_ALL_JOBS, == *,$x,* ]] || die "experiment alternatives: unknown job '$x' ($ALT_ALL_JOBS)"; done
  local sql_only=yes
  for x in ${ALT_JOBS//,/ }; do [[ $x == sql-* ]] || sql_only=no; done
  if [[ $sql_only == yes ]]; then
    local any=no
    for x in ${modes//,/ }; do [[ ,$ALT_SQL_MODES, == *,$x,* ]] && any=yes; done
    [[ $any == yes ]] || die "experiment alternatives: the SQL jobs run in the modes ${ALT_SQL_MODES//,/, } only (Spark in local mode never speculates); --modes $modes has none of them"
  fi
  for x in ${stragglers//,/ }; do [[ $x == none || $x == net || $x == cpu ]] || die "experiment alternatives: --stragglers takes none, net and cpu, got '$x'"; done
  [[ "$repeats" =~ ^[1-9][0-9]*$ ]] || die "experiment alternatives: --repeats must be a positive integer, got '$repeats'"
  [[ "$input" =~ ^[1-9][0-9]*$ && "$block" =~ ^[1-9][0-9]*$ && "$files" =~ ^[1-9][0-9]*$ ]] \
    || die "experiment alternatives: --input-mib, --block-mib and --dfsio-files must be positive integers"
  [[ "$datanodes" =~ ^[0-9]+$ ]] || die "experiment alternatives: --datanodes must be a number, got '$datanodes'"
  cl_valid_rate "$rate" || die "experiment alternatives: --rate must be MiB/s or none, got '$rate'"
  [[ $line == 3.4 || $line == 3.1 ]] || die "experiment alternatives: --hadoop must be 3.4 or 3.1, got '$line'"
  if [[ $line == 3.1 && ,$modes, == *,slownode,* ]]; then
    die "experiment alternatives: Hadoop 3.1 has none of the slow-node features; leave slownode out of --modes with --hadoop 3.1"
  fi
  for x in ${layouts//,/ }; do
    ((datanodes >= $(alt_width "$x"))) \
      || die "experiment alternatives: $x needs at least $(alt_width "$x") DataNodes, got --datanodes $datanodes"
  done
  [[ -z "${plot}" ]] && plot="${json%.json}.png"
  if [[ -n $keep ]]; then
    [[ -f $json ]] || die "experiment alternatives: --keep: no $json to keep runs from"
    python3 "$POCACHE_HOME/scripts/lib/alternatives.py" check-keep "$json" "hadoop=$line" "rate=$rate" \
      "factor=$factor" "cpu_factor=$cpu_factor" "input_mib=$input" "block_mib=$block" "dfsio_files=$files" \
      "repeats=$repeats" "layouts=$layouts" "modes=$modes" "jobs=$ALT_JOBS" "stragglers=$stragglers" \
      "sql_modes=$ALT_SQL_MODES" || die "experiment alternatives: --keep: $json was made with other settings (above)"
  fi
  stale && build
  # The commit the runs measure: the one built now, whatever is committed while they run.
  local commit
  commit=$(git -C "$POCACHE_HOME" rev-parse --short HEAD 2>/dev/null || echo unknown)
  cl_use_hadoop "$line"
  [[ ,$ALT_JOBS, == *,sql-* ]] && alt_spark_setup "$line"
  local work="$CLUSTER_DIR/results/alternatives" rows="$CLUSTER_DIR/results/alternatives.rows"
  mkdir -p "$work" "$(dirname "$json")"
  : >"$rows"
  ALT_TIMED_JAR=$work/timed-reads.jar
  ex_timed_reads_jar "$ALT_TIMED_JAR"
  local phases=(plain)
  [[ ,$modes, == *,slownode,* ]] && phases+=(slownode)
  local phase layout job state mode r log res kind dn storage
  local -A straggler_of=() input_of=()
  : >"$work/storage"
  for phase in "${phases[@]}"; do
    alt_cluster "$phase" "$line" "$datanodes" "$rate"
    for layout in ${layouts//,/ }; do
      if [[ $phase == plain ]]; then
        alt_inputs "$layout" "$input" "$block" "$files" "$work"
      fi
      # Redis keeps no parity across a restart: every layout's inputs cached before POCache is timed.
      if [[ $phase == plain && ,$modes, == *,pocache* ]]; then
        # shellcheck disable=SC2046
        ex_ensure_cached $(alt_input_paths "$layout")
      fi
      if [[ -z ${straggler_of[$layout]:-} ]]; then
        straggler_of[$layout]=$(alt_pick_straggler "$layout")
        straggler_of[$layout]=${straggler_of[$layout]:-1}
        storage=$(alt_storage "$layout")
        echo "$layout $storage" >>"$work/storage"
        say "experiment alternatives: $layout: straggler DataNode ${straggler_of[$layout]}; user/disk/parity bytes $storage"
      fi
      for state in ${stragglers//,/ }; do
        cl_straggler off >/dev/null
        dn=${straggler_of[$layout]}
        case $state in
          net) cl_straggler on "$dn" --kind net --factor "$factor" >/dev/null ;;
          cpu) cl_straggler on "$dn" --kind cpu --factor "$cpu_factor" >/dev/null ;;
        esac
        for ((r = 1; r <= repeats; r++)); do
          for job in ${ALT_JOBS//,/ }; do
            local order=()
            for mode in ${modes//,/ }; do
              [[ $job == sql-* && ,$ALT_SQL_MODES, != *,$mode,* ]] && continue
              if [[ ($phase == slownode && $mode == slownode) || ($phase == plain && $mode != slownode) ]]; then
                order+=("$mode")
              fi
            done
            [[ ${#order[@]} -eq 0 ]] && continue
            # Alternate the order across repeats, so that no mode always runs first.
            ((r % 2 == 0)) && mapfile -t order < <(printf "%s\n" "${order[@]}" | tac)
            for mode in "${order[@]}"; do
              log="$work/$layout-$job-$state-$mode-$r.log"
              [[ -n ${input_of[$layout-$job]:-} ]] || input_of[$layout-$job]=$(alt_input_stamp "$layout" "$job")
              res=$(alt_run "$layout" "$job" "$mode" "$log" "$input" "$block" "$files")
              local ms digest tput
              read -r ms digest tput <<<"$res"
              printf '%s %s %s %s %d %d %s %s %s %s %s\n' "$layout" "$job" "$state" "$mode" "$r" "$ms" "$digest" "$tput" \
                "$dn" "$(case $state in net) echo "$factor" ;; cpu) echo "$cpu_factor" ;; *) echo - ;; esac)" \
                "${input_of[$layout-$job]}" >>"$rows"
              printf 'pocache: %-6s %-11s %-4s %-12s run %d: %6d ms%s\n' "$layout" "$job" "$state" "$mode" "$r" "$ms" \
                "$([[ $tput != - ]] && echo " ($tput MB/s)")" >&2
            done
          done
        done
      done
      cl_straggler off >/dev/null
    done
  done
  # Leave the cluster as the plain phase had it.
  [[ ${#phases[@]} -gt 1 ]] && alt_cluster plain "$line" "$datanodes" "$rate"
  python3 "$POCACHE_HOME/scripts/lib/alternatives.py" summarize "$rows" "$work/storage" "$json" "$work" \
    "hadoop=$HADOOP_VERSION" "rate=$rate" "factor=$factor" "cpu_factor=$cpu_factor" "input_mib=$input" \
    "block_mib=$block" "dfsio_files=$files" "repeats=$repeats" "datanodes=$(cl_get datanodes)" \
    "commit=$commit" \
    ${keep:+"keep=$json"}
  "$JAVA" -cp "$POCACHE_HOME/experiments/target/classes:$(cat "$POCACHE_HOME/experiments/target/classpath.txt")" \
    org.pocache.experiments.cluster.AlternativesChart "$plot" "$json"
  say "experiment alternatives: JSON in $json, chart in $plot"
}
