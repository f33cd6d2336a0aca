# shellcheck shell=bash
#
# `pocache cluster ...`: a pseudo-distributed Hadoop 3.1.4 on this machine, every
# daemon its own process, with POCache installed exactly as the README's "Install
# into Hadoop" section says. Sourced by scripts/pocache (needs its say/die/JAVA).
#
# Layout under $CLUSTER_DIR (default target/cluster):
#   hadoop/share/hadoop/common/lib/   Hadoop 3.1.4's jars from Maven Central + the drop-in jar
#   hadoop/share/hadoop/hdfs/webapps/ the NameNode/DataNode web UI resources
#   conf/                             HADOOP_CONF_DIR of the NameNode, YARN, clients and jobs
#   dn<i>/conf/                       DataNode i's own conf dir (its NameNode address and dirs)
#   data/ logs/ pids/ redis/
#
# Each DataNode runs in its own network namespace (pocache-dn<i>), joined to the
# host by a veth pair 10.77.<i>.1 (host) <-> 10.77.<i>.2 (DataNode), its egress
# shaped by tc tbf to --rate, or unshaped (--rate none, the default: the DataNodes
# serve from the page cache as fast as the CPU lets them). `straggler on <i>` lowers
# DataNode i's rate to rate/--factor (kind net; with --rate none, CL_UNSHAPED_MIBS/factor)
# or caps its CPU with a cgroup (kind cpu).

CLUSTER_DIR=${POCACHE_CLUSTER_DIR:-$POCACHE_HOME/target/cluster}
# The Hadoop line the cluster runs (cluster up --hadoop 3.1|3.4; 3.1 unless cluster.env says
# otherwise): its version, its installation (jars from Maven Central) and its lib directory.
cl_use_hadoop() {
  case "${1:-3.1}" in
    3.1) HADOOP_VERSION=3.1.4; CL_HOME="$CLUSTER_DIR/hadoop"; CL_LINE=3.1 ;;
    3.4) HADOOP_VERSION=3.4.1; CL_HOME="$CLUSTER_DIR/hadoop-3.4.1"; CL_LINE=3.4 ;;
    *) die "cluster: --hadoop must be 3.1 or 3.4, got '$1'" ;;
  esac
  CL_LIB="$CL_HOME/share/hadoop/common/lib"
  CL_OPENS=()
  if [[ $CL_LINE == 3.4 ]]; then CL_OPENS=("${CL_OPENS_34[@]}"); fi
}
# Hadoop 3.4's daemons reach into more of the JDK than 3.1's.
CL_OPENS_34=(--add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.net=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.util.regex=ALL-UNNAMED)
cl_use_hadoop "$(awk -F= '$1 == "hadoop" {print $2}' "$CLUSTER_DIR/cluster.env" 2>/dev/null | tail -1)"
CL_CONF="$CLUSTER_DIR/conf"
CL_NN_PORT=9000
CL_MANAGER_PORT=8047
# --ha: the nameservice, the second NameNode's RPC and the Managers' ports, the JournalNodes'.
CL_NS=pocache
CL_NN2_PORT=9010
CL_MANAGER2_PORT=8048
CL_JN_PORT=18485
# --federation: nameservices ns1 (the NameNode on CL_NN_PORT, its Manager on CL_MANAGER_PORT)
# and ns2, behind the ViewFs mount table pocache-fed on the clients.
CL_FED_NN2_PORT=9020
CL_FED_MANAGER2_PORT=8049
CL_FED=off
CL_REDIS_PORT=6380
CL_NET=10.77
CL_CGROUP=/sys/fs/cgroup/cpu/pocache
# The nominal rate (MiB/s) an unshaped DataNode counts as: what a net straggler's rate is
# divided from when --rate is none (an unshaped DataNode serves from the page cache).
CL_UNSHAPED_MIBS=800

cl_settings() { cat "$CLUSTER_DIR/cluster.env" 2>/dev/null || true; }
cl_get() { cl_settings | awk -F= -v k="$1" '$1 == k {print $2}'; }
[[ $(cl_get federation) == on ]] && CL_FED=on

cl_usage() {
  cat <<'USAGE'
Usage: pocache cluster <command>

  up [--datanodes N] [--rate MiB/s|none] [--pocache on|off] [--ha] [--hadoop 3.1|3.4] [--redis-maxmemory MiB]
     [--yarn on|off] [--set key=value]...
                     start NameNode (+ POCache Manager), N DataNodes (default 5), each in its
                     own network namespace, unshaped (--rate none, the default) or shaped to
                     --rate MiB/s by tc tbf, redis-server,
                     ResourceManager and NodeManager (not with --yarn off: HDFS only, for reads
                     without jobs); prints where everything is. --set adds a
                     property to every daemon's and the clients' hdfs-site.xml (e.g.
                     dfs.pocache.code.k=6)
                     --hadoop 3.4: Hadoop 3.4.1's daemons (jars from Maven Central) with the drop-in
                     jar for Hadoop 3.3 and later (default 3.1: Hadoop 3.1.4's, the 3.1 jar).
                     --ha: two NameNodes (nn1, nn2) of nameservice hdfs://pocache with three
                     JournalNodes, each NameNode with its Manager; nn1 starts active
                     --federation: two nameservices, ns1 (127.0.0.1:9000, Manager 8047) and ns2
                     (127.0.0.1:9020, Manager 8049), each DataNode serving both; clients see them
                     through ViewFs (viewfs://pocache-fed/: /ns1, /ns2; /tmp and /user in ns1)
  failover           (--ha) hdfs haadmin -failover from the active NameNode to the other
  restart datanode <i> | namenode nn1|nn2 | all [settle seconds]
                     restart a DataNode as HDFS's rolling upgrade does (dfsadmin -shutdownDatanode
                     upgrade, start, wait for its block reports), a standby NameNode (--ha), or
                     every DataNode in turn and then (--ha) the standby, a failover, the other
  down               stop everything and remove the namespaces (data stays under target/cluster)
  status             every daemon, its pid and log, and the Manager's -report
  straggler on <i> [--kind net|cpu] [--factor F]
                     make DataNode i (1-based) a straggler: its rate / F (net, default F=10;
                     an unshaped cluster counts as 800 MiB/s), or its CPU capped at 1/F of a
                     core (cpu)
  straggler off [<i>]
                     undo (all DataNodes when i is omitted)
  rate <MiB/s>|none  reshape every DataNode to this rate, or unshape them (stragglers off)
  hdfs <args>        run an HDFS command with the cluster's conf (e.g. hdfs dfs -ls /)
  jar <jar> <args>   run a jar the way `hadoop jar` does (e.g. the MapReduce examples)
  install            rebuild if needed and copy the drop-in jar into the cluster's lib (clients
                     and jobs pick it up; daemons on their next start)
  env                print the shell variables a Hadoop client needs (HADOOP_CONF_DIR, CLASSPATH)
  clean              down, then delete target/cluster
USAGE
}

cl_classpath() {
  echo "$CL_CONF:$CL_HOME/share/hadoop/hdfs:$CL_LIB/*"
}

# --- installation (README "Install into Hadoop", step 1) ------------------------

cl_install_hadoop() {
  if [[ -f "$CL_HOME/.complete" ]]; then
    return
  fi
  say "cluster: fetching Hadoop $HADOOP_VERSION's jars from Maven Central (once; log in $CLUSTER_DIR/logs/install.log)"
  mkdir -p "$CL_LIB" "$CLUSTER_DIR/logs"
  local examples=$HADOOP_VERSION
  [[ $HADOOP_VERSION == 3.4.1 ]] && examples=3.4.2 # Central has no 3.4.1 examples jar
  if ! mvn_run -f "$POCACHE_HOME/scripts/cluster/pom.xml" -Dhadoop.version="$HADOOP_VERSION" \
      -Dexamples.version="$examples" dependency:copy-dependencies \
      -DoutputDirectory="$CL_LIB" -Dmdep.useRepositoryLayout=false >"$CLUSTER_DIR/logs/install.log" 2>&1; then
    tail -20 "$CLUSTER_DIR/logs/install.log" >&2
    die "could not fetch Hadoop's jars; see $CLUSTER_DIR/logs/install.log"
  fi
  # The web UI resources of HDFS are not in hadoop-hdfs.jar on Central, only in its -tests jar.
  if ! mvn_run -f "$POCACHE_HOME/scripts/cluster/pom.xml" dependency:unpack \
      -Dartifact=org.apache.hadoop:hadoop-hdfs:$HADOOP_VERSION:jar:tests \
      -Dmdep.unpack.includes='webapps/**' -DoutputDirectory="$CL_HOME/share/hadoop/hdfs" \
      >>"$CLUSTER_DIR/logs/install.log" 2>&1; then
    die "could not fetch HDFS's webapps; see $CLUSTER_DIR/logs/install.log"
  fi
  # Jars that clash with Hadoop 3.1.4 running on JDK 17 or that a tarball does not ship.
  rm -f "$CL_LIB"/junit-*.jar "$CL_LIB"/hamcrest-*.jar
  touch "$CL_HOME/.complete"
}

# The drop-in jar built for the cluster's Hadoop line (README "Install into Hadoop").
cl_built_dropin() {
  if [[ $CL_LINE == 3.1 ]]; then
    ls "$POCACHE_HOME"/hdfs-pocache-patch/target/hdfs-pocache-patch-[0-9]*-dropin.jar 2>/dev/null | head -1
  else
    ls "$POCACHE_HOME"/dropin-hadoop-3.3/target/hdfs-pocache-patch-hadoop-3.3-*-dropin.jar 2>/dev/null | head -1
  fi
}

cl_install_dropin() {
  local jar
  jar=$(cl_built_dropin)
  [[ -n "$jar" ]] || die "no drop-in jar for Hadoop $CL_LINE; run scripts/pocache build"
  rm -f "$CL_LIB"/hdfs-pocache-patch-*dropin.jar
  cp "$jar" "$CL_LIB/"
}

# --- configuration files (README "Install into Hadoop", steps 2-4) --------------

xml_conf() { # file, then key=value pairs
  local f=$1
  shift
  {
    echo '<?xml version="1.0"?>'
    echo '<configuration>'
    local kv
    for kv in "$@"; do
      printf '  <property><name>%s</name><value>%s</value></property>\n' "${kv%%=*}" "${kv#*=}"
    done
    echo '</configuration>'
  } >"$f"
}

cl_write_conf() { # pocache on|off, datanodes, ha on|off, extra hdfs-site key=value...
  local pocache=$1 n=$2 ha=$3 dir=$CL_CONF
  shift 3
  mkdir -p "$dir"
  local fsimpl=() nnplug=() dnplug=() keys=()
  if [[ $pocache == on ]]; then
    # Step 2: clients. Step 3: the NameNode and DataNode plugins. Step 4: the switch and Redis.
    fsimpl=("fs.hdfs.impl=org.pocache.hdfs.client.PoCacheFileSystem")
    nnplug=("dfs.namenode.plugins=org.pocache.hdfs.namenode.PoCacheNameNodePlugin"
      "dfs.block.replicator.classname=org.pocache.hdfs.namenode.StripePlacementPolicy")
    dnplug=("dfs.datanode.plugins=org.pocache.hdfs.datanode.PoCacheDataNodePlugin")
    keys=("dfs.pocache.enabled=true" "dfs.pocache.redis.hosts=127.0.0.1:$CL_REDIS_PORT")
    # The Manager's parity secret (docs/security.md): kept across restarts, readable by its owner only.
    local secret=$CLUSTER_DIR/secret/pocache-parity.secret
    if [[ ! -s $secret ]]; then
      mkdir -p "$CLUSTER_DIR/secret"
      (umask 077 && echo "1:$(head -c 32 /dev/urandom | base64 -w0)" >"$secret")
      chmod 400 "$secret"
    fi
    keys+=("dfs.pocache.parity.secret.file=$secret")
  fi
  keys+=("$@")
  # --ha: two NameNodes of nameservice $CL_NS sharing edits through three JournalNodes,
  # failed over by hand (hdfs haadmin -failover; no ZooKeeper). Clients and DataNodes find
  # both NameNodes, and both Managers, from the same keys (docs/operations.md).
  local fs_uri="hdfs://127.0.0.1:$CL_NN_PORT" ha_keys=() view=()
  if [[ $CL_FED == on ]]; then
    # Two nameservices of one cluster (one cluster id), each NameNode with its Manager; the
    # clients' ViewFs mount table names each NameNode by host:port, and the POCache client
    # finds the nameservice, and its Manager, from dfs.namenode.rpc-address.<ns>.
    fs_uri="viewfs://pocache-fed/"
    ha_keys=("dfs.nameservices=ns1,ns2" "dfs.namenode.rpc-address.ns1=127.0.0.1:$CL_NN_PORT"
      "dfs.namenode.rpc-address.ns2=127.0.0.1:$CL_FED_NN2_PORT")
    if [[ $pocache == on ]]; then
      ha_keys+=("dfs.pocache.manager.address.ns1=0.0.0.0:$CL_MANAGER_PORT"
        "dfs.pocache.manager.address.ns2=0.0.0.0:$CL_FED_MANAGER2_PORT")
    fi
    view=("fs.viewfs.mounttable.pocache-fed.link./ns1=hdfs://127.0.0.1:$CL_NN_PORT/"
      "fs.viewfs.mounttable.pocache-fed.link./ns2=hdfs://127.0.0.1:$CL_FED_NN2_PORT/"
      "fs.viewfs.mounttable.pocache-fed.link./tmp=hdfs://127.0.0.1:$CL_NN_PORT/tmp"
      "fs.viewfs.mounttable.pocache-fed.link./user=hdfs://127.0.0.1:$CL_NN_PORT/user")
  fi
  if [[ $ha == on ]]; then
    fs_uri="hdfs://$CL_NS"
    ha_keys=("dfs.nameservices=$CL_NS" "dfs.ha.namenodes.$CL_NS=nn1,nn2"
      "dfs.client.failover.proxy.provider.$CL_NS=org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider"
      "dfs.ha.automatic-failover.enabled=false" "dfs.ha.fencing.methods=shell(/bin/true)")
    if [[ $pocache == on ]]; then
      ha_keys+=("dfs.pocache.manager.address.$CL_NS.nn1=0.0.0.0:$CL_MANAGER_PORT"
        "dfs.pocache.manager.address.$CL_NS.nn2=0.0.0.0:$CL_MANAGER2_PORT")
    fi
  fi
  xml_conf "$dir/core-site.xml" \
    "fs.defaultFS=$fs_uri" \
    "hadoop.tmp.dir=$CLUSTER_DIR/data/tmp" \
    "${fsimpl[@]}" ${view[@]+"${view[@]}"}
  local hdfs_common=(
    "dfs.replication=1"
    "dfs.permissions.enabled=true"
    "dfs.namenode.datanode.registration.ip-hostname-check=false"
    "dfs.namenode.heartbeat.recheck-interval=60000"
    "dfs.client.read.shortcircuit=false"
  )
  local nn_keys=("dfs.namenode.rpc-bind-host=0.0.0.0" "${nnplug[@]}")
  if [[ $ha == on ]]; then
    local jn="qjournal://127.0.0.1:$CL_JN_PORT;127.0.0.1:$((CL_JN_PORT + 10));127.0.0.1:$((CL_JN_PORT + 20))/$CL_NS"
    nn_keys+=("dfs.namenode.rpc-address.$CL_NS.nn1=127.0.0.1:$CL_NN_PORT"
      "dfs.namenode.rpc-address.$CL_NS.nn2=127.0.0.1:$CL_NN2_PORT"
      "dfs.namenode.http-address.$CL_NS.nn1=127.0.0.1:9870" "dfs.namenode.http-address.$CL_NS.nn2=127.0.0.1:9872"
      "dfs.namenode.name.dir.$CL_NS.nn1=$CLUSTER_DIR/data/nn" "dfs.namenode.name.dir.$CL_NS.nn2=$CLUSTER_DIR/data/nn2"
      "dfs.namenode.shared.edits.dir=$jn" "dfs.ha.tail-edits.period=1")
  elif [[ $CL_FED == on ]]; then
    nn_keys+=("dfs.namenode.http-address.ns1=127.0.0.1:9870" "dfs.namenode.http-address.ns2=127.0.0.1:9874")
  else
    nn_keys+=("dfs.namenode.name.dir=$CLUSTER_DIR/data/nn" "dfs.namenode.http-address=127.0.0.1:9870")
  fi
  xml_conf "$dir/hdfs-site.xml" "${hdfs_common[@]}" "${ha_keys[@]}" "${nn_keys[@]}" "${keys[@]}"
  if [[ $CL_FED == on ]]; then
    # Each NameNode is told its nameservice (both listen on this host) and its own disks.
    local id ns port
    for id in nn1 nn2; do
      ns=ns1 port=$CL_NN_PORT
      [[ $id == nn2 ]] && ns=ns2 port=$CL_FED_NN2_PORT
      mkdir -p "$CLUSTER_DIR/$id/conf"
      xml_conf "$CLUSTER_DIR/$id/conf/core-site.xml" "fs.defaultFS=hdfs://127.0.0.1:$port" \
        "hadoop.tmp.dir=$CLUSTER_DIR/data/tmp" "${fsimpl[@]}"
      xml_conf "$CLUSTER_DIR/$id/conf/hdfs-site.xml" "${hdfs_common[@]}" "${ha_keys[@]}" "${nn_keys[@]}" \
        "dfs.nameservice.id=$ns" "dfs.namenode.name.dir=$CLUSTER_DIR/data/$([[ $id == nn1 ]] && echo nn || echo nn2)" \
        "${keys[@]}"
    done
  fi
  if [[ $ha == on ]]; then
    # Both NameNodes run on this host, so each is told which of the pair it is.
    local id j
    for id in nn1 nn2; do
      mkdir -p "$CLUSTER_DIR/$id/conf"
      cp "$dir/core-site.xml" "$CLUSTER_DIR/$id/conf/"
      xml_conf "$CLUSTER_DIR/$id/conf/hdfs-site.xml" "${hdfs_common[@]}" "${ha_keys[@]}" "${nn_keys[@]}" \
        "dfs.ha.namenode.id=$id" "${keys[@]}"
    done
    for j in 1 2 3; do
      mkdir -p "$CLUSTER_DIR/jn$j/conf"
      cp "$dir/core-site.xml" "$CLUSTER_DIR/jn$j/conf/"
      xml_conf "$CLUSTER_DIR/jn$j/conf/hdfs-site.xml" "dfs.journalnode.edits.dir=$CLUSTER_DIR/data/jn$j" \
        "dfs.journalnode.rpc-address=127.0.0.1:$((CL_JN_PORT + 10 * (j - 1)))" \
        "dfs.journalnode.http-address=127.0.0.1:$((CL_JN_PORT + 10 * (j - 1) + 1))" \
        "dfs.journalnode.https-address=127.0.0.1:$((CL_JN_PORT + 10 * (j - 1) + 2))"
    done
  fi
  xml_conf "$dir/yarn-site.xml" \
    "yarn.resourcemanager.hostname=127.0.0.1" \
    "yarn.nodemanager.hostname=127.0.0.1" \
    "yarn.nodemanager.aux-services=mapreduce_shuffle" \
    "yarn.nodemanager.aux-services.mapreduce_shuffle.class=org.apache.hadoop.mapred.ShuffleHandler" \
    "yarn.nodemanager.resource.memory-mb=6144" \
    "yarn.nodemanager.resource.cpu-vcores=4" \
    "yarn.scheduler.minimum-allocation-mb=256" \
    "yarn.nodemanager.vmem-check-enabled=false" \
    "yarn.nodemanager.pmem-check-enabled=false" \
    "yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage=99.5" \
    "yarn.nodemanager.local-dirs=$CLUSTER_DIR/data/nm-local" \
    "yarn.nodemanager.log-dirs=$CLUSTER_DIR/logs/containers" \
    "yarn.nodemanager.env-whitelist=JAVA_HOME,HADOOP_CONF_DIR,HADOOP_HOME,PATH,LANG,TZ" \
    "yarn.timeline-service.enabled=false" \
    "yarn.log-aggregation-enable=false" \
    "yarn.application.classpath=$CL_CONF,$CL_LIB/*"
  local opens="--add-opens java.base/java.lang=ALL-UNNAMED"
  xml_conf "$dir/mapred-site.xml" \
    "mapreduce.framework.name=yarn" \
    "mapreduce.application.classpath=$CL_CONF,$CL_LIB/*" \
    "yarn.app.mapreduce.am.resource.mb=768" \
    "yarn.app.mapreduce.am.command-opts=-Xmx512m $opens" \
    "mapreduce.map.memory.mb=768" \
    "mapreduce.reduce.memory.mb=768" \
    "mapreduce.map.java.opts=-Xmx512m $opens" \
    "mapreduce.reduce.java.opts=-Xmx512m $opens" \
    "mapreduce.jobhistory.address=127.0.0.1:10020" \
    "yarn.app.mapreduce.am.staging-dir=/tmp/hadoop-yarn/staging"
  xml_conf "$dir/capacity-scheduler.xml" \
    "yarn.scheduler.capacity.root.queues=default" \
    "yarn.scheduler.capacity.root.default.capacity=100" \
    "yarn.scheduler.capacity.root.default.maximum-capacity=100" \
    "yarn.scheduler.capacity.maximum-am-resource-percent=0.5"
  cat >"$dir/log4j.properties" <<'LOG4J'
hadoop.root.logger=INFO,console
hadoop.log.dir=.
hadoop.log.file=hadoop.log
log4j.rootLogger=${hadoop.root.logger}
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.target=System.err
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.appender.RFA=org.apache.log4j.FileAppender
log4j.appender.RFA.File=${hadoop.log.dir}/${hadoop.log.file}
log4j.appender.RFA.layout=org.apache.log4j.PatternLayout
log4j.appender.RFA.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n
log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR
log4j.logger.org.apache.hadoop.hdfs.StateChange=WARN
log4j.logger.org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace=WARN
log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=WARN
LOG4J
  if [[ $ha == on ]]; then
    local c
    for c in nn1 nn2 jn1 jn2 jn3; do cp "$dir/log4j.properties" "$CLUSTER_DIR/$c/conf/"; done
  elif [[ $CL_FED == on ]]; then
    cp "$dir/log4j.properties" "$CLUSTER_DIR/nn1/conf/"
    cp "$dir/log4j.properties" "$CLUSTER_DIR/nn2/conf/"
  fi
  local i
  for ((i = 1; i <= n; i++)); do
    local d="$CLUSTER_DIR/dn$i/conf"
    mkdir -p "$d"
    cp "$dir"/{log4j.properties,yarn-site.xml,mapred-site.xml} "$d/"
    # A DataNode host's own files: the NameNode as seen from its namespace, its own disks.
    local dn_nn=()
    if [[ $ha == on ]]; then
      dn_nn=("dfs.namenode.rpc-address.$CL_NS.nn1=$CL_NET.$i.1:$CL_NN_PORT"
        "dfs.namenode.rpc-address.$CL_NS.nn2=$CL_NET.$i.1:$CL_NN2_PORT")
      xml_conf "$d/core-site.xml" "fs.defaultFS=hdfs://$CL_NS" "hadoop.tmp.dir=$CLUSTER_DIR/dn$i/tmp" "${fsimpl[@]}"
    elif [[ $CL_FED == on ]]; then
      dn_nn=("dfs.namenode.rpc-address.ns1=$CL_NET.$i.1:$CL_NN_PORT"
        "dfs.namenode.rpc-address.ns2=$CL_NET.$i.1:$CL_FED_NN2_PORT")
      xml_conf "$d/core-site.xml" "fs.defaultFS=hdfs://$CL_NET.$i.1:$CL_NN_PORT" \
        "hadoop.tmp.dir=$CLUSTER_DIR/dn$i/tmp" "${fsimpl[@]}"
    else
      xml_conf "$d/core-site.xml" "fs.defaultFS=hdfs://$CL_NET.$i.1:$CL_NN_PORT" \
        "hadoop.tmp.dir=$CLUSTER_DIR/dn$i/tmp" "${fsimpl[@]}"
    fi
    xml_conf "$d/hdfs-site.xml" "${hdfs_common[@]}" "${ha_keys[@]}" "${dn_nn[@]}" \
      "dfs.datanode.data.dir=$CLUSTER_DIR/dn$i/data" \
      "dfs.datanode.hostname=$CL_NET.$i.2" \
      "${dnplug[@]}" "${keys[@]}"
  done
}

# --- network namespaces and stragglers -----------------------------------------

cl_can_netns() {
  [[ $(id -u) -eq 0 ]] || return 1
  if ! command -v ip >/dev/null 2>&1 || ! command -v tc >/dev/null 2>&1; then
    can_apt_install && apt_install iproute2 || true
  fi
  command -v ip >/dev/null 2>&1 && command -v tc >/dev/null 2>&1
}

cl_netns_up() { # i, rate MiB/s
  local i=$1 rate=$2 ns=pocache-dn$1 h=pcdn$1h g=pcdn$1g
  ip netns del "$ns" 2>/dev/null || true
  ip link del "$h" 2>/dev/null || true
  ip netns add "$ns"
  ip link add "$h" type veth peer name "$g"
  ip link set "$g" netns "$ns"
  ip addr add "$CL_NET.$i.1/24" dev "$h"
  ip link set "$h" up
  ip netns exec "$ns" ip addr add "$CL_NET.$i.2/24" dev "$g"
  ip netns exec "$ns" ip link set "$g" up
  ip netns exec "$ns" ip link set lo up
  ip netns exec "$ns" ip route add default via "$CL_NET.$i.1"
  # The host's nameserver may be unreachable from the namespace, and then every name lookup a
  # starting DataNode makes waits for DNS (10 s each, twice: a DataNode took 20 s longer to
  # serve after a restart). `ip netns exec` gives the namespace this resolv.conf instead: no
  # nameserver but its own loopback, so a lookup /etc/hosts cannot answer fails at once. The
  # cluster names every daemon by address.
  mkdir -p "/etc/netns/$ns"
  printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"/etc/netns/$ns/resolv.conf"
  cl_shape "$i" "$rate"
}

# DataNode i's egress (what it serves to readers) at rate MiB/s; none: unshaped.
cl_shape() {
  local i=$1 rate=$2 ns=pocache-dn$1 g=pcdn$1g
  local kbit burst
  if [[ $rate == none ]]; then
    ip netns exec "$ns" tc qdisc del dev "$g" root 2>/dev/null || true
    return 0
  fi
  kbit=$(awk -v r="$rate" 'BEGIN {printf "%d", r * 8 * 1048.576}')
  burst=$(awk -v r="$rate" 'BEGIN {b = r * 1048576 / 100; if (b < 65536) b = 65536; printf "%d", b}')
  ip netns exec "$ns" tc qdisc replace dev "$g" root tbf rate "${kbit}kbit" burst "$burst" latency 400ms
}

cl_netns_down() {
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '/^pocache-dn/ {print $1}'); do
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf /etc/netns/pocache-dn*
  local l
  for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | grep -E '^pcdn[0-9]+h' | sed 's/@.*//'); do
    ip link del "$l" 2>/dev/null || true
  done
}

# --- daemons ---------------------------------------------------------------------

cl_pidfile() { echo "$CLUSTER_DIR/pids/$1.pid"; }

cl_alive() {
  local f
  f=$(cl_pidfile "$1")
  [[ -f "$f" ]] && kill -0 "$(cat "$f")" 2>/dev/null
}

# name, conf dir, heap, netns ("" for the host), main class, args...
cl_start_java() {
  local name=$1 conf=$2 heap=$3 ns=$4 main=$5
  shift 5
  local log="$CLUSTER_DIR/logs/$name.log"
  local cp="$conf:$CL_HOME/share/hadoop/hdfs:$CL_LIB/*"
  local cmd=("$JAVA" "-Xmx$heap" --add-opens java.base/java.lang=ALL-UNNAMED
    -Dhadoop.log.dir="$CLUSTER_DIR/logs" -Dhadoop.log.file="$name.log" -Dhadoop.root.logger=INFO,RFA
    -Dhadoop.home.dir="$CL_HOME" -Dyarn.log.dir="$CLUSTER_DIR/logs" "${CL_OPENS[@]}"
    -cp "$cp" "$main" "$@")
  mkdir -p "$CLUSTER_DIR/logs" "$CLUSTER_DIR/pids"
  : >"$log"
  if [[ -n "$ns" ]]; then
    cmd=(ip netns exec "$ns" "${cmd[@]}")
  fi
  if ((${CL_NICE:-0} != 0)); then
    cmd=(nice -n "$CL_NICE" "${cmd[@]}")
  fi
  HADOOP_CONF_DIR=$conf HADOOP_HOME="$CL_HOME" JAVA_HOME="${JAVA_HOME:-$(cl_java_home)}" \
    setsid "${cmd[@]}" >"$CLUSTER_DIR/logs/$name.out" 2>&1 </dev/null &
  echo $! >"$(cl_pidfile "$name")"
}

cl_java_home() {
  local j
  j=$(readlink -f "$(command -v "$JAVA")")
  echo "${j%/bin/java}"
}

# Wait until a command succeeds, or die naming what did not come up and its log.
cl_wait() { # what, seconds, log, command...
  local what=$1 secs=$2 log=$3
  shift 3
  local deadline=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS > deadline)); then
      tail -30 "$log" >&2 || true
      die "cluster: $what did not come up within ${secs}s; see $log"
    fi
    sleep 1
  done
}

cl_stop() { # name, grace seconds
  local name=$1 grace=${2:-10} f pid
  f=$(cl_pidfile "$name")
  [[ -f "$f" ]] || return 0
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + grace))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
    # Stock 3.1.4's NodeManager on JDK 17 ignores SIGTERM.
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

cl_redis_up() {
  local bin=${POCACHE_REDIS_SERVER:-$(command -v redis-server || true)}
  [[ -n "$bin" ]] || die "cluster: redis-server is required (apt-get install redis-server, or set POCACHE_REDIS_SERVER)"
  local maxmem=$1 dir="$CLUSTER_DIR/redis"
  mkdir -p "$dir"
  cat >"$dir/redis.conf" <<EOF
bind 127.0.0.1
port $CL_REDIS_PORT
dir $dir
save ""
appendonly no
maxmemory ${maxmem}mb
maxmemory-policy noeviction
logfile $CLUSTER_DIR/logs/redis.log
EOF
  setsid "$bin" "$dir/redis.conf" >"$CLUSTER_DIR/logs/redis.out" 2>&1 </dev/null &
  echo $! >"$(cl_pidfile redis)"
}

cl_redis_ping() {
  (exec 3<>/dev/tcp/127.0.0.1/$CL_REDIS_PORT && printf 'PING\r\n' >&3 && timeout 2 head -c 5 <&3 | grep -q PONG)
}

cl_valid_rate() { [[ "$1" == none || "$1" =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
cl_rate_words() { if [[ $1 == none ]]; then echo "unshaped"; else echo "at $1 MiB/s"; fi; }

cl_port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

cl_up() {
  local n=5 rate=none pocache=on maxmem=1536 extra=() codek=4 ha=off line=3.1 yarn=on
  CL_FED=off # the last cluster's layout does not carry over: only --federation makes one
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --set)
        [[ "$2" =~ ^[A-Za-z0-9._-]+=.+$ ]] || die "cluster up: --set takes key=value, got '$2'"
        extra+=("$2")
        [[ "$2" == dfs.pocache.code.k=* ]] && codek=${2#*=}
        shift 2 ;;
      --datanodes) n=$2; shift 2 ;;
      --rate) rate=$2; shift 2 ;;
      --pocache) pocache=$2; shift 2 ;;
      --redis-maxmemory) maxmem=$2; shift 2 ;;
      --ha) ha=on; shift ;;
      --federation) CL_FED=on; shift ;;
      --hadoop) line=$2; shift 2 ;;
      --yarn) yarn=$2; shift 2 ;;
      *) cl_usage >&2; die "cluster up: unknown option '$1'" ;;
    esac
  done
  [[ "$n" =~ ^[0-9]+$ && $n -ge 1 && $n -le 20 ]] || die "cluster up: --datanodes must be 1-20, got '$n'"
  cl_valid_rate "$rate" || die "cluster up: --rate must be MiB/s or none, got '$rate'"
  [[ $pocache == on || $pocache == off ]] || die "cluster up: --pocache must be on or off, got '$pocache'"
  [[ $yarn == on || $yarn == off ]] || die "cluster up: --yarn must be on or off, got '$yarn'"
  [[ $ha == on && $CL_FED == on ]] && die "cluster up: --ha or --federation, not both"
  cl_can_netns || die "cluster up: needs root with ip and tc (iproute2) for the DataNodes' network namespaces"
  if cl_alive namenode; then
    die "cluster: already up (scripts/pocache cluster down first)"
  fi
  cl_use_hadoop "$line"
  stale && build
  [[ -n $(cl_built_dropin) ]] || build
  cl_install_hadoop
  cl_install_dropin
  mkdir -p "$CLUSTER_DIR"/{logs,pids,data}
  printf 'datanodes=%s\nrate=%s\npocache=%s\ncode_k=%s\nha=%s\nhadoop=%s\nfederation=%s\nyarn=%s\n' "$n" "$rate" \
    "$pocache" "$codek" "$ha" "$CL_LINE" "$CL_FED" "$yarn" >"$CLUSTER_DIR/cluster.env"
  cl_write_conf "$pocache" "$n" "$ha" ${extra[@]+"${extra[@]}"}
  # A NameNode formatted for one layout (one NameNode, or an HA pair) does not start as the
  # other: the file system is made afresh, DataNodes' blocks included.
  local layout="ha=$ha hadoop=$CL_LINE" was
  [[ $CL_FED == on ]] && layout="$layout federation=on"
  was=$(cat "$CLUSTER_DIR/data/layout" 2>/dev/null || echo "ha=off hadoop=3.1")
  [[ $was == ha=on || $was == ha=off ]] && was="$was hadoop=3.1"
  if [[ -d "$CLUSTER_DIR/data/nn/current" && $was != "$layout" ]]; then
    say "cluster: the file system was made for $was, not $layout; formatting it afresh"
    rm -rf "$CLUSTER_DIR"/data/nn "$CLUSTER_DIR"/data/nn2 "$CLUSTER_DIR"/data/jn* "$CLUSTER_DIR"/dn*/data
  fi

  cl_redis_up "$maxmem"
  cl_wait "redis-server" 20 "$CLUSTER_DIR/logs/redis.log" cl_redis_ping

  if [[ $ha == on ]]; then
    cl_ha_namenodes_up
  elif [[ $CL_FED == on ]]; then
    cl_fed_namenodes_up
  else
    if [[ ! -d "$CLUSTER_DIR/data/nn/current" ]]; then
      say "cluster: formatting the NameNode"
      HADOOP_CONF_DIR=$CL_CONF "$JAVA" -cp "$(cl_classpath)" -Dhadoop.root.logger=WARN,console \
        org.apache.hadoop.hdfs.server.namenode.NameNode -format -force -nonInteractive \
        >"$CLUSTER_DIR/logs/format.log" 2>&1 || die "NameNode format failed; see $CLUSTER_DIR/logs/format.log"
    fi
    cl_start_java namenode "$CL_CONF" 1g "" org.apache.hadoop.hdfs.server.namenode.NameNode
    cl_wait "the NameNode" 90 "$CLUSTER_DIR/logs/namenode.log" cl_port_open 127.0.0.1 "$CL_NN_PORT"
  fi
  echo "$layout" >"$CLUSTER_DIR/data/layout"

  cl_netns_down
  # DataNodes reach each other (write pipelines, the job's staging files) through the host.
  echo 1 >/proc/sys/net/ipv4/ip_forward
  local i
  for ((i = 1; i <= n; i++)); do
    cl_netns_up "$i" "$rate"
    cl_start_datanode "$i"
  done
  if [[ $yarn == on ]]; then
    cl_start_java resourcemanager "$CL_CONF" 1g "" org.apache.hadoop.yarn.server.resourcemanager.ResourceManager
    cl_start_java nodemanager "$CL_CONF" 768m "" org.apache.hadoop.yarn.server.nodemanager.NodeManager
  fi

  cl_wait "$n DataNodes" 120 "$CLUSTER_DIR/logs/namenode.log" cl_datanodes_live "$n"
  if ! cl_safemode_off 120; then
    # Blocks on DataNodes not started this time (an earlier `up` had more) keep the NameNode
    # in safe mode for good: say so and leave it; files with such blocks stay unreadable.
    say "cluster: the NameNode is still in safe mode after 120 s (blocks on DataNodes that are not up:" \
      "an earlier cluster had more than $n?); leaving safe mode"
    cl_hdfs dfsadmin -safemode leave >/dev/null 2>&1 || true
  fi
  cl_hdfs dfs -mkdir -p /tmp /user/root /tmp/hadoop-yarn/staging >/dev/null 2>&1 || true
  cl_hdfs dfs -chmod -R 1777 /tmp >/dev/null 2>&1 || true
  [[ $yarn == on ]] && cl_wait "the NodeManager" 120 "$CLUSTER_DIR/logs/nodemanager.log" cl_nodemanager_running
  if [[ $pocache == on ]]; then
    cl_wait "the POCache Manager" 60 "$CLUSTER_DIR/logs/namenode.log" cl_port_open 127.0.0.1 "$CL_MANAGER_PORT"
    if [[ $ha == on ]]; then
      cl_wait "the second NameNode's POCache Manager" 60 "$CLUSTER_DIR/logs/namenode2.log" \
        cl_port_open 127.0.0.1 "$CL_MANAGER2_PORT"
    elif [[ $CL_FED == on ]]; then
      cl_wait "ns2's POCache Manager" 60 "$CLUSTER_DIR/logs/namenode2.log" \
        cl_port_open 127.0.0.1 "$CL_FED_MANAGER2_PORT"
    fi
  fi
  local where="NameNode hdfs://127.0.0.1:$CL_NN_PORT"
  [[ $ha == on ]] && where="NameNodes nn1 (active) 127.0.0.1:$CL_NN_PORT and nn2 127.0.0.1:$CL_NN2_PORT of hdfs://$CL_NS, 3 JournalNodes"
  [[ $CL_FED == on ]] && where="NameNodes of ns1 127.0.0.1:$CL_NN_PORT and ns2 127.0.0.1:$CL_FED_NN2_PORT behind viewfs://pocache-fed/ (/ns1, /ns2)"
  say "cluster: up: Hadoop $HADOOP_VERSION; $where, $n DataNodes $(cl_rate_words "$rate") ($CL_NET.<i>.2), redis 127.0.0.1:$CL_REDIS_PORT, $([[ $yarn == on ]] && echo "YARN 127.0.0.1:8032" || echo "no YARN"); POCache $pocache"
  say "cluster: conf $CL_CONF, logs $CLUSTER_DIR/logs"
}

# --ha: three JournalNodes, NameNode nn1 (formatted on the first start) and nn2 (a copy of
# nn1's namespace, bootstrapped as standby), then nn1 made active.
cl_ha_namenodes_up() {
  local j
  for j in 1 2 3; do
    cl_start_java "journalnode$j" "$CLUSTER_DIR/jn$j/conf" 256m "" org.apache.hadoop.hdfs.qjournal.server.JournalNode
  done
  for j in 1 2 3; do
    cl_wait "JournalNode $j" 60 "$CLUSTER_DIR/logs/journalnode$j.log" \
      cl_port_open 127.0.0.1 "$((CL_JN_PORT + 10 * (j - 1)))"
  done
  if [[ ! -d "$CLUSTER_DIR/data/nn/current" ]]; then
    say "cluster: formatting NameNode nn1 and the shared edits"
    HADOOP_CONF_DIR=$CLUSTER_DIR/nn1/conf "$JAVA" -cp "$CLUSTER_DIR/nn1/conf:$CL_LIB/*" \
      -Dhadoop.root.logger=WARN,console org.apache.hadoop.hdfs.server.namenode.NameNode -format -force \
      -nonInteractive >"$CLUSTER_DIR/logs/format.log" 2>&1 || die "NameNode format failed; see $CLUSTER_DIR/logs/format.log"
  fi
  cl_start_java namenode "$CLUSTER_DIR/nn1/conf" 1g "" org.apache.hadoop.hdfs.server.namenode.NameNode
  cl_wait "NameNode nn1" 90 "$CLUSTER_DIR/logs/namenode.log" cl_port_open 127.0.0.1 "$CL_NN_PORT"
  if [[ ! -d "$CLUSTER_DIR/data/nn2/current" ]]; then
    say "cluster: bootstrapping NameNode nn2 as standby"
    HADOOP_CONF_DIR=$CLUSTER_DIR/nn2/conf "$JAVA" -cp "$CLUSTER_DIR/nn2/conf:$CL_LIB/*" \
      -Dhadoop.root.logger=WARN,console org.apache.hadoop.hdfs.server.namenode.NameNode -bootstrapStandby -force \
      -nonInteractive >"$CLUSTER_DIR/logs/bootstrap.log" 2>&1 \
      || die "bootstrapping the standby failed; see $CLUSTER_DIR/logs/bootstrap.log"
  fi
  cl_start_java namenode2 "$CLUSTER_DIR/nn2/conf" 1g "" org.apache.hadoop.hdfs.server.namenode.NameNode
  cl_wait "NameNode nn2" 90 "$CLUSTER_DIR/logs/namenode2.log" cl_port_open 127.0.0.1 "$CL_NN2_PORT"
  cl_haadmin -transitionToActive nn1 >"$CLUSTER_DIR/logs/haadmin.log" 2>&1 \
    || die "could not make nn1 active; see $CLUSTER_DIR/logs/haadmin.log"
}

# --federation: both NameNodes formatted with one cluster id on the first start.
cl_fed_namenodes_up() {
  local id name port
  for id in nn1 nn2; do
    name=namenode port=$CL_NN_PORT
    [[ $id == nn2 ]] && name=namenode2 port=$CL_FED_NN2_PORT
    if [[ ! -d "$CLUSTER_DIR/data/$([[ $id == nn1 ]] && echo nn || echo nn2)/current" ]]; then
      say "cluster: formatting NameNode $id (nameservice $([[ $id == nn1 ]] && echo ns1 || echo ns2))"
      HADOOP_CONF_DIR=$CLUSTER_DIR/$id/conf "$JAVA" -cp "$CLUSTER_DIR/$id/conf:$CL_LIB/*" \
        -Dhadoop.root.logger=WARN,console org.apache.hadoop.hdfs.server.namenode.NameNode -format -force \
        -nonInteractive -clusterid pocache-fed >"$CLUSTER_DIR/logs/format-$id.log" 2>&1 \
        || die "NameNode format failed; see $CLUSTER_DIR/logs/format-$id.log"
    fi
    cl_start_java "$name" "$CLUSTER_DIR/$id/conf" 1g "" org.apache.hadoop.hdfs.server.namenode.NameNode
    cl_wait "NameNode $id" 90 "$CLUSTER_DIR/logs/$name.log" cl_port_open 127.0.0.1 "$port"
  done
}

cl_haadmin() { cl_java_tool "$CL_CONF" org.apache.hadoop.hdfs.tools.DFSHAAdmin "$@"; }

# The active NameNode of an --ha cluster (nn1 or nn2), or nothing.
cl_ha_active() {
  local id
  for id in nn1 nn2; do
    [[ $(cl_haadmin -getServiceState "$id" 2>/dev/null) == active ]] && { echo "$id"; return 0; }
  done
  return 1
}

# `cluster failover`: hdfs haadmin -failover from the active NameNode to the other one.
cl_failover() {
  [[ $(cl_get ha) == on ]] || die "cluster failover: the cluster was not started with --ha"
  local from to
  from=$(cl_ha_active) || die "cluster failover: no NameNode is active"
  to=$([[ $from == nn1 ]] && echo nn2 || echo nn1)
  cl_haadmin -failover "$from" "$to" || die "cluster failover: hdfs haadmin -failover $from $to failed"
  say "cluster: failed over from $from to $to"
}

cl_start_datanode() {
  cl_start_java "datanode$1" "$CLUSTER_DIR/dn$1/conf" 512m "pocache-dn$1" org.apache.hadoop.hdfs.server.datanode.DataNode
}

# The niceness a restart starts its daemon and commands at: POCACHE_RESTART_NICE, 0-19 (default 0).
cl_restart_nice() {
  local n=${POCACHE_RESTART_NICE:-0}
  [[ "$n" =~ ^[0-9]+$ && $n -le 19 ]] || die "cluster restart: POCACHE_RESTART_NICE must be 0-19, got '$n'"
  echo "$n"
}

# Every thread of a daemon started niced back to niceness 0 (Linux keeps a niceness per thread).
cl_unnice() { # name
  ((${CL_NICE:-0} != 0)) || return 0
  local f pid t
  f=$(cl_pidfile "$1")
  [[ -f "$f" ]] || return 0
  pid=$(cat "$f")
  for t in /proc/"$pid"/task/*; do
    renice -n 0 -p "${t##*/}" >/dev/null 2>&1 || true
  done
}

# How many NameNodes each DataNode reports to.
cl_namenodes() { if [[ $(cl_get ha) == on || $CL_FED == on ]]; then echo 2; else echo 1; fi; }

cl_block_reports() { grep -c 'Successfully sent block report' "$CLUSTER_DIR/logs/datanode$1.log" 2>/dev/null || true; }

cl_datanode_ipc_up() { cl_hdfs dfsadmin -getDatanodeInfo "$CL_NET.$1.2:9867" >/dev/null 2>&1; }

# Restart DataNode i the way HDFS's rolling upgrade does: `dfsadmin -shutdownDatanode
# <host:ipc> upgrade` (writers whose pipeline includes it wait for it to come back rather
# than lose it), wait until it is down, start it again, and wait until it has sent its
# block report to every NameNode. With an event file, each step's time (ms) goes there.
#
# POCACHE_RESTART_NICE=N (1-19) runs what a restart starts (the daemon's JVM until it is back,
# the admin commands) at that niceness: on this one machine they share the readers' cores,
# where on a cluster they run on machines of their own. The daemon's threads go back to
# niceness 0 once it is back.
cl_restart_datanode() { # i, [event file]
  local i=$1 events=${2:-/dev/null} end
  local CL_NICE
  CL_NICE=$(cl_restart_nice) || exit 1
  local n
  n=$(cl_get datanodes)
  [[ "$i" =~ ^[0-9]+$ && $i -ge 1 && $i -le ${n:-0} ]] || die "cluster restart datanode: DataNode must be 1-${n:-0}, got '$i'"
  echo "$(date +%s%3N) dn $i $CL_NET.$i.2 shutdown" >>"$events"
  cl_hdfs dfsadmin -shutdownDatanode "$CL_NET.$i.2:9867" upgrade >/dev/null 2>&1 \
    || say "cluster: DataNode $i did not take -shutdownDatanode; stopping it"
  end=$((SECONDS + 60))
  while cl_alive "datanode$i" && ((SECONDS < end)); do sleep 0.2; done
  cl_stop "datanode$i" 10
  echo "$(date +%s%3N) dn $i $CL_NET.$i.2 down" >>"$events"
  cl_start_datanode "$i"
  local want
  want=$(cl_namenodes)
  end=$((SECONDS + 120))
  until (($(cl_block_reports "$i") >= want)); do
    ((SECONDS < end)) || die "cluster: DataNode $i sent no block report within 120 s of its restart; see $CLUSTER_DIR/logs/datanode$i.log"
    cl_alive "datanode$i" || die "cluster: DataNode $i died on restart; see $CLUSTER_DIR/logs/datanode$i.log"
    sleep 0.2
  done
  echo "$(date +%s%3N) dn $i $CL_NET.$i.2 up" >>"$events"
  cl_unnice "datanode$i"
  say "cluster: DataNode $i restarted"
}

# Restart NameNode nn1 or nn2 of an --ha cluster; it must be standby (fail over first).
# Waits until it is back as standby with its Manager listening and out of safe mode.
cl_restart_namenode() { # nn1|nn2, [event file]
  local id=$1 events=${2:-/dev/null} name port mport end
  local CL_NICE
  CL_NICE=$(cl_restart_nice) || exit 1
  [[ $(cl_get ha) == on ]] || die "cluster restart namenode: only an --ha cluster's NameNodes restart under load (the one NameNode is the file system)"
  case "$id" in
    nn1) name=namenode; port=$CL_NN_PORT; mport=$CL_MANAGER_PORT ;;
    nn2) name=namenode2; port=$CL_NN2_PORT; mport=$CL_MANAGER2_PORT ;;
    *) die "cluster restart namenode: nn1 or nn2, got '$id'" ;;
  esac
  [[ $(cl_haadmin -getServiceState "$id" 2>/dev/null) == standby ]] \
    || die "cluster restart namenode: $id is not standby (cluster failover first)"
  echo "$(date +%s%3N) nn $id 127.0.0.1 shutdown" >>"$events"
  cl_stop "$name" 30
  echo "$(date +%s%3N) nn $id 127.0.0.1 down" >>"$events"
  cl_start_java "$name" "$CLUSTER_DIR/$id/conf" 1g "" org.apache.hadoop.hdfs.server.namenode.NameNode
  cl_wait "NameNode $id" 90 "$CLUSTER_DIR/logs/$name.log" cl_port_open 127.0.0.1 "$port"
  if [[ $(cl_get pocache) == on ]]; then
    cl_wait "NameNode $id's POCache Manager" 60 "$CLUSTER_DIR/logs/$name.log" cl_port_open 127.0.0.1 "$mport"
  fi
  # A restarted standby leaves safe mode once every DataNode has re-registered and reported
  # its blocks, and dfs.namenode.safemode.extension (30 s) after that.
  end=$((SECONDS + 300))
  until [[ $(cl_hdfs dfsadmin -fs "hdfs://127.0.0.1:$port" -safemode get 2>/dev/null) == *"Safe mode is OFF"* ]]; do
    ((SECONDS < end)) || die "cluster: NameNode $id still in safe mode 300 s after its restart; see $CLUSTER_DIR/logs/$name.log"
    sleep 1
  done
  echo "$(date +%s%3N) nn $id 127.0.0.1 up" >>"$events"
  cl_unnice "$name"
  say "cluster: NameNode $id restarted (standby)"
}

# `cluster restart`: every DataNode in turn, then with --ha the standby NameNode, a
# failover to it, and the other NameNode; settle seconds between steps.
cl_rolling_restart() { # [settle seconds], [event file]
  local settle=${1:-10} events=${2:-/dev/null} n i active standby
  n=$(cl_get datanodes)
  [[ -n "$n" ]] || die "cluster: not up"
  for ((i = 1; i <= n; i++)); do
    cl_restart_datanode "$i" "$events"
    sleep "$settle"
  done
  if [[ $(cl_get ha) == on ]]; then
    active=$(cl_ha_active) || die "cluster restart: no NameNode is active"
    standby=$([[ $active == nn1 ]] && echo nn2 || echo nn1)
    cl_restart_namenode "$standby" "$events"
    sleep "$settle"
    echo "$(date +%s%3N) failover $active 127.0.0.1 start" >>"$events"
    CL_NICE=$(cl_restart_nice) cl_failover
    echo "$(date +%s%3N) failover $active 127.0.0.1 done" >>"$events"
    sleep "$settle"
    cl_restart_namenode "$active" "$events"
    sleep "$settle"
  fi
}

# Waits up to $1 seconds for the NameNode to leave safe mode; false if it has not.
cl_safemode_off() {
  local end=$((SECONDS + $1)) port answered mode
  while ((SECONDS < end)); do
    # A NameNode's own answer over HTTP: no JVM per poll while the daemons start on the same
    # cores; dfsadmin only when no NameNode answers there.
    answered=no
    for port in $(cl_nn_http_ports); do
      mode=$(cl_nn_jmx "$port" NameNodeInfo Safemode)
      [[ $mode == "''" ]] && return 0
      [[ -n $mode ]] && answered=yes
    done
    [[ $answered == no && $(cl_hdfs dfsadmin -safemode get 2>/dev/null) == *"Safe mode is OFF"* ]] && return 0
    sleep 2
  done
  return 1
}

cl_datanodes_live() {
  local want=$1 live port answered=no
  for port in $(cl_nn_http_ports); do
    live=$(cl_nn_jmx "$port" FSNamesystemState NumLiveDataNodes)
    [[ "$live" =~ ^[0-9]+$ ]] || continue
    ((live >= want)) && return 0
    answered=yes
  done
  [[ $answered == no ]] || return 1
  live=$(cl_hdfs dfsadmin -report -live 2>/dev/null | awk -F'[()]' '/^Live datanodes/ {print $2}')
  [[ -n "$live" && $live -ge $want ]]
}

# The NameNodes' HTTP ports (hdfs-site.xml as cl_write_conf writes it).
cl_nn_http_ports() {
  echo 9870
  if [[ $(cl_get ha) == on ]]; then echo 9872; elif [[ $(cl_get federation) == on ]]; then echo 9874; fi
}

# Attribute $3 of the NameNode's JMX bean Hadoop:service=NameNode,name=$2 on HTTP port $1,
# as a Python literal ('' for an empty string); nothing when the NameNode does not answer.
cl_nn_jmx() {
  python3 - "$@" <<'PY' 2>/dev/null
import json, sys, urllib.request
port, bean, attr = sys.argv[1:4]
url = "http://127.0.0.1:%s/jmx?qry=Hadoop:service=NameNode,name=%s" % (port, bean)
with urllib.request.urlopen(url, timeout=5) as r:
    beans = json.load(r).get("beans", [])
if beans and attr in beans[0]:
    print(repr(beans[0][attr]))
PY
}

cl_nodemanager_running() {
  # The ResourceManager's REST answer first (no JVM per poll), then the yarn command.
  python3 - <<'PY' 2>/dev/null && return 0
import json, sys, urllib.request
with urllib.request.urlopen("http://127.0.0.1:8088/ws/v1/cluster/nodes", timeout=5) as r:
    nodes = ((json.load(r).get("nodes") or {}).get("node")) or []
sys.exit(0 if any(n.get("state") == "RUNNING" for n in nodes) else 1)
PY
  cl_yarn node -list 2>/dev/null | grep -q RUNNING
}

cl_down() {
  local f names=()
  # YARN and the DataNodes together, then the NameNodes, JournalNodes and redis: each step
  # signals every process at once and waits for them together.
  for f in "$CLUSTER_DIR"/pids/datanode*.pid; do
    [[ -f "$f" ]] && names+=("$(basename "$f" .pid)")
  done
  cl_stop_all 10 nodemanager resourcemanager ${names[@]+"${names[@]}"}
  cl_stop_all 15 namenode namenode2
  cl_stop_all 10 journalnode1 journalnode2 journalnode3
  cl_stop redis 5
  cl_cpu_release all
  cl_can_netns && cl_netns_down
  # Containers the NodeManager left behind (their parent was killed).
  pkill -f "$CLUSTER_DIR/data/nm-local" 2>/dev/null || true
  say "cluster: down"
}

# cl_stop for several processes at once: SIGTERM to all, up to $1 s for them to end, then SIGKILL.
cl_stop_all() { # grace seconds, names...
  local grace=$1 name f pid pids=() files=()
  shift
  for name in "$@"; do
    f=$(cl_pidfile "$name")
    [[ -f "$f" ]] || continue
    pid=$(cat "$f")
    files+=("$f")
    if kill -0 "$pid" 2>/dev/null; then
      # Stock 3.1.4's NodeManager on JDK 17 ignores SIGTERM: it gets SIGKILL at once.
      if [[ $name == nodemanager ]]; then kill -KILL "$pid" 2>/dev/null || true; else kill -TERM "$pid" 2>/dev/null || true; fi
      pids+=("$pid")
    fi
  done
  local deadline=$((SECONDS + grace)) left
  while ((SECONDS < deadline)); do
    left=0
    for pid in ${pids[@]+"${pids[@]}"}; do kill -0 "$pid" 2>/dev/null && left=1; done
    ((left)) || break
    sleep 0.5
  done
  for pid in ${pids[@]+"${pids[@]}"}; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -f ${files[@]+"${files[@]}"}
}

cl_status() {
  local rc=0 name f
  [[ -f "$CLUSTER_DIR/cluster.env" ]] || { say "cluster: never started"; return 1; }
  echo "cluster: $(cl_settings | tr '\n' ' ')"
  for f in "$CLUSTER_DIR"/pids/*.pid; do
    [[ -f "$f" ]] || continue
    name=$(basename "$f" .pid)
    if cl_alive "$name"; then
      printf '  %-16s pid %-8s log %s\n' "$name" "$(cat "$f")" "$CLUSTER_DIR/logs/$name.log"
    else
      printf '  %-16s DEAD           log %s\n' "$name" "$CLUSTER_DIR/logs/$name.log"
      rc=1
    fi
  done
  local s
  for s in "$CLUSTER_DIR"/stragglers/*; do
    [[ -f "$s" ]] && echo "  straggler: DataNode $(basename "$s") $(cat "$s")"
  done
  if [[ $(cl_get pocache) == on ]]; then
    echo "Manager -report:"
    cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -report || rc=1
    cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -stragglers || rc=1
    cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$(cl_dropin_jar)" -checknative || rc=1
  fi
  return $rc
}

cl_dropin_jar() { ls "$CL_LIB"/hdfs-pocache-patch-*dropin.jar | head -1; }

# --- stragglers ------------------------------------------------------------------

cl_straggler() {
  local what=${1:-} i=${2:-}
  shift 2 || shift $#
  local kind=net factor=10
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --kind) kind=$2; shift 2 ;;
      --factor) factor=$2; shift 2 ;;
      *) die "cluster straggler: unknown option '$1'" ;;
    esac
  done
  local n rate
  n=$(cl_get datanodes)
  rate=$(cl_get rate)
  [[ -n "$n" ]] || die "cluster: not up"
  mkdir -p "$CLUSTER_DIR/stragglers"
  case "$what" in
    on)
      [[ "$i" =~ ^[0-9]+$ && $i -ge 1 && $i -le $n ]] || die "cluster straggler on: DataNode must be 1-$n, got '$i'"
      [[ "$factor" =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "cluster straggler: --factor must be a number, got '$factor'"
      case "$kind" in
        net)
          local base=$rate
          [[ $rate == none ]] && base=$CL_UNSHAPED_MIBS
          cl_shape "$i" "$(awk -v r="$base" -v f="$factor" 'BEGIN {print r / f}')"
          echo "net: egress $base/$factor MiB/s" >"$CLUSTER_DIR/stragglers/$i" ;;
        cpu)
          cl_cpu_cap "$i" "$factor"
          echo "cpu: 1/$factor of a core" >"$CLUSTER_DIR/stragglers/$i" ;;
        *) die "cluster straggler: --kind must be net or cpu, got '$kind'" ;;
      esac
      say "cluster: DataNode $i is a straggler ($(cat "$CLUSTER_DIR/stragglers/$i"))" ;;
    off)
      local list
      if [[ -n "$i" ]]; then list=$i; else list=$(seq 1 "$n"); fi
      for i in $list; do
        cl_shape "$i" "$rate"
        cl_cpu_release "$i"
        rm -f "$CLUSTER_DIR/stragglers/$i"
      done
      say "cluster: stragglers off (${list//$'\n'/ })" ;;
    *) die "cluster straggler: on <i> | off [<i>]" ;;
  esac
}

# Every DataNode's egress to rate MiB/s (stragglers off), kept for later `straggler off`.
cl_set_rate() {
  local rate=$1 n
  n=$(cl_get datanodes)
  [[ -n "$n" ]] || die "cluster: not up"
  sed -i "s/^rate=.*/rate=$rate/" "$CLUSTER_DIR/cluster.env"
  cl_straggler off >/dev/null
}

cl_cpu_cap() { # i, factor
  local i=$1 factor=$2 pid g="$CL_CGROUP/dn$1"
  [[ -d /sys/fs/cgroup/cpu ]] || die "cluster straggler --kind cpu: cgroup v1 cpu controller not mounted at /sys/fs/cgroup/cpu"
  pid=$(cat "$(cl_pidfile "datanode$i")" 2>/dev/null) || die "cluster: DataNode $i is not running"
  mkdir -p "$g"
  echo 100000 >"$g/cpu.cfs_period_us"
  awk -v f="$factor" 'BEGIN {printf "%d\n", 100000 / f}' >"$g/cpu.cfs_quota_us"
  local t
  # Every thread of the DataNode's JVM (and of its `ip netns exec` parent).
  for t in $(ls "/proc/$pid/task" 2>/dev/null) $(pgrep -P "$pid"); do echo "$t" >"$g/tasks" 2>/dev/null || true; done
  for t in $(pgrep -P "$pid"); do
    local tt
    for tt in $(ls "/proc/$t/task" 2>/dev/null); do echo "$tt" >"$g/tasks" 2>/dev/null || true; done
  done
}

cl_cpu_release() {
  local which=$1 g t
  [[ -d "$CL_CGROUP" ]] || return 0
  for g in "$CL_CGROUP"/dn*; do
    [[ -d "$g" ]] || continue
    [[ $which == all || $g == "$CL_CGROUP/dn$which" ]] || continue
    for t in $(cat "$g/tasks" 2>/dev/null); do echo "$t" >/sys/fs/cgroup/cpu/tasks 2>/dev/null || true; done
    rmdir "$g" 2>/dev/null || true
  done
  rmdir "$CL_CGROUP" 2>/dev/null || true # only once no DataNode's group is left
}

# --- clients ---------------------------------------------------------------------

cl_java_tool() { # conf dir, main, args...
  local conf=$1 nice=()
  shift
  if ((${CL_NICE:-0} != 0)); then nice=(nice -n "$CL_NICE"); fi
  HADOOP_CONF_DIR=$conf "${nice[@]}" "$JAVA" -Xmx1g --add-opens java.base/java.lang=ALL-UNNAMED \
    -Dhadoop.root.logger="${HADOOP_ROOT_LOGGER:-WARN,console}" -Dhadoop.home.dir="$CL_HOME" "${CL_OPENS[@]}" \
    -cp "$conf:$CL_LIB/*" "$@"
}

cl_hdfs() {
  local sub=${1:-}
  shift || true
  case "$sub" in
    dfs) cl_java_tool "$CL_CONF" org.apache.hadoop.fs.FsShell "$@" ;;
    dfsadmin)
      # ViewFs is no HDFS to dfsadmin: with --federation it asks ns1's NameNode unless told -fs.
      if [[ $CL_FED == on && ${1:-} != -fs ]]; then
        cl_java_tool "$CL_CONF" org.apache.hadoop.hdfs.tools.DFSAdmin -fs "hdfs://127.0.0.1:$CL_NN_PORT" "$@"
      else
        cl_java_tool "$CL_CONF" org.apache.hadoop.hdfs.tools.DFSAdmin "$@"
      fi ;;
    fsck) cl_java_tool "$CL_CONF" org.apache.hadoop.hdfs.tools.DFSck "$@" ;;
    *) die "cluster hdfs: dfs, dfsadmin or fsck, got '$sub'" ;;
  esac
}

cl_yarn() {
  local sub=${1:-}
  shift || true
  case "$sub" in
    node) cl_java_tool "$CL_CONF" org.apache.hadoop.yarn.client.cli.NodeCLI "$@" ;;
    application) cl_java_tool "$CL_CONF" org.apache.hadoop.yarn.client.cli.ApplicationCLI "$@" ;;
    *) die "cluster yarn: node or application, got '$sub'" ;;
  esac
}

cmd_cluster() {
  local sub=${1:-}
  [[ $# -gt 0 ]] && shift
  check_jdk
  case "$sub" in
    up) check_maven; check_native_deps; cl_up "$@" ;;
    down) cl_down ;;
    status) cl_status ;;
    straggler) cl_straggler "$@" ;;
    failover) cl_failover ;;
    restart)
      case "${1:-}" in
        datanode) cl_restart_datanode "${2:-}" ;;
        namenode) cl_restart_namenode "${2:-}" ;;
        all) cl_rolling_restart "${2:-10}" ;;
        *) die "cluster restart: datanode <i> | namenode nn1|nn2 | all [settle seconds]" ;;
      esac ;;
    rate)
      cl_valid_rate "${1:-}" || die "cluster rate: give MiB/s or none, got '${1:-}'"
      cl_set_rate "$1"; say "cluster: every DataNode $(cl_rate_words "$1")" ;;
    hdfs) cl_hdfs "$@" ;;
    yarn) cl_yarn "$@" ;;
    jar) cl_java_tool "$CL_CONF" org.apache.hadoop.util.RunJar "$@" ;;
    install) check_maven; stale && build; cl_install_dropin; say "cluster: installed $(basename "$(cl_dropin_jar)") (new clients and jobs use it; restart the daemons for theirs)" ;;
    env) echo "export HADOOP_CONF_DIR=$CL_CONF"; echo "export CLASSPATH='$(cl_classpath)'" ;;
    clean) cl_down; rm -rf "$CLUSTER_DIR" ;;
    ""|help|--help) cl_usage ;;
    *) cl_usage >&2; die "cluster: unknown command '$sub'" ;;
  esac
}
