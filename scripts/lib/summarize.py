"""Summaries of `pocache experiment` runs: medians, min and max, ratios, JSON.

  summarize.py mapreduce ROWS JSON STRAGGLER_DN FACTOR INPUT_MIB BLOCK_MIB
  summarize.py reads NONE_JSON STRAGGLER_JSON JSON STRAGGLER_DN FACTOR [RATE]
  summarize.py spark ROWS JSON STRAGGLER_DN FACTOR INPUT_MIB BLOCK_MIB
  summarize.py spark-digest ROWS JOB        (the first recorded output digest of JOB)
  summarize.py pick-straggler [K] < fsck output
  summarize.py shared-stripes [K] < fsck output (files with a stripe two of whose blocks share a DataNode)
  summarize.py stragglers SAMPLES JSON STRAGGLER_HOST FACTOR
  summarize.py demo-runs JSON DEMO_JSON...  (scripts/pocache demo --json runs, grouped by --protection)
  summarize.py demo-bench JSON DEMO_JSON... (scripts/pocache bench demo: each goal's ratio over the runs)
  summarize.py read-cpu JSON STRAGGLER_DN FACTOR RATE PHASE:MODE:RUN:LISTED:RUN_JSON...
                                            (scripts/pocache bench read-cpu)
  summarize.py federation ROWS JSON MIB BLOCK_MIB OTHER_KEYS HADOOP
  summarize.py rolling JSON RATE SETTLE HADOOP HA MODE:RUN:OPS:EVENTS...
                                            (scripts/pocache experiment rolling-restart)
"""
import os
import json
import statistics
import sys


def stats(xs):
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": xs}


def job_history(path):
    """Per task type of one job's JSON history: tasks, summed CPU and GC ms, median elapsed ms."""
    started, done = {}, {}
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except (OSError, UnicodeDecodeError):  # missing, or the binary form
        return None
    for line in lines:
        if not line.startswith('{"type"'):
            continue
        e = json.loads(line)
        if "event" not in e:
            continue  # the schema
        ev = next(iter(e["event"].values()))
        if e["type"] in ("MAP_ATTEMPT_STARTED", "REDUCE_ATTEMPT_STARTED"):
            started[ev["attemptId"]] = ev["startTime"]
        elif e["type"] in ("MAP_ATTEMPT_FINISHED", "REDUCE_ATTEMPT_FINISHED"):
            kind = "map" if e["type"].startswith("MAP") else "reduce"
            d = done.setdefault(kind, {"tasks": 0, "cpu_ms": 0, "gc_ms": 0, "elapsed_ms": []})
            d["tasks"] += 1
            d["elapsed_ms"].append(ev["finishTime"] - started.get(ev["attemptId"], ev["finishTime"]))
            for g in ev["counters"]["groups"]:
                for c in g["counts"]:
                    if c["name"] == "CPU_MILLISECONDS":
                        d["cpu_ms"] += c["value"]
                    elif c["name"] == "GC_TIME_MILLIS":
                        d["gc_ms"] += c["value"]
    for d in done.values():
        d["elapsed_ms"] = statistics.median(d["elapsed_ms"])
    return done or None


def read_times(path):
    """Each map task's time inside its input's read calls (ms), from `<log>.reads`; None if absent."""
    try:
        xs = [float(line.split()[1]) for line in open(path) if line.strip()]
    except OSError:
        return None
    return xs or None


def mapreduce(rows_file, out, dn, factor, input_mib, block_mib, work=None):
    runs = {}
    maps = {}
    tasks = {}
    reads = {}
    order = []
    for line in open(rows_file):
        job, state, mode, r, ms, map_ms, _digest = line.split()
        if job not in order:
            order.append(job)
        runs.setdefault((job, state, mode), []).append(int(ms))
        maps.setdefault((job, state, mode), []).append(int(map_ms))
        h = job_history(os.path.join(work, f"{job}-{state}-{mode}-{r}.log.jhist")) if work else None
        if h:
            tasks.setdefault((job, state, mode), []).append(h)
        rt = read_times(os.path.join(work, f"{job}-{state}-{mode}-{r}.log.reads")) if work else None
        if rt:
            reads.setdefault((job, state, mode), []).append(rt)
    rows = []
    print(f"{'job':10} {'straggler':10} {'vanilla ms':>22} {'pocache ms':>22} {'ratio':>6}  map task ms (v / p)")
    for job in order:
        row = {"job": job}
        for state in ("none", "straggler"):
            v, p = runs.get((job, state, "vanilla")), runs.get((job, state, "pocache"))
            if not v or not p:
                continue
            sv, sp = stats(v), stats(p)
            ratio = sp["median"] / sv["median"]
            key = "ratio_straggler" if state == "straggler" else "ratio_no_straggler"
            row[key] = round(ratio, 3)
            row[state] = {"vanilla_ms": sv, "pocache_ms": sp,
                          "vanilla_map_task_ms": stats(maps[(job, state, "vanilla")]),
                          "pocache_map_task_ms": stats(maps[(job, state, "pocache")])}
            # Per task type, over the runs: medians of the tasks' summed CPU and of their median time.
            for mode in ("vanilla", "pocache"):
                for kind in ("map", "reduce"):
                    hs = [h[kind] for h in tasks.get((job, state, mode), []) if kind in h]
                    if hs:
                        row[state][f"{mode}_{kind}_cpu_ms"] = stats([h["cpu_ms"] for h in hs])
                        row[state][f"{mode}_{kind}_gc_ms"] = stats([h["gc_ms"] for h in hs])
                        row[state][f"{mode}_{kind}_elapsed_ms"] = stats([h["elapsed_ms"] for h in hs])
                # Input read time per map task (TimedReads): per run the mean, median and slowest task.
                rts = reads.get((job, state, mode))
                if rts:
                    row[state][f"{mode}_map_read_ms"] = stats([round(statistics.mean(x), 1) for x in rts])
                    row[state][f"{mode}_map_read_median_ms"] = stats([statistics.median(x) for x in rts])
                    row[state][f"{mode}_map_read_max_ms"] = stats([max(x) for x in rts])
                    row[state][f"{mode}_map_read_tasks_ms"] = rts
            print(f"{job:10} {state:10} {sv['median']:8.0f} ({sv['min']:.0f}-{sv['max']:.0f}) "
                  f"{sp['median']:8.0f} ({sp['min']:.0f}-{sp['max']:.0f}) {ratio:6.3f}  "
                  f"{statistics.median(maps[(job, state, 'vanilla')]):.0f} / "
                  f"{statistics.median(maps[(job, state, 'pocache')]):.0f}")
        for state in ("none", "straggler"):
            r = row.get(state, {})
            parts = [f"{kind} {r[f'vanilla_{kind}_cpu_ms']['median'] / 1000:.1f} / "
                     f"{r[f'pocache_{kind}_cpu_ms']['median'] / 1000:.1f} s"
                     for kind in ("map", "reduce") if f"vanilla_{kind}_cpu_ms" in r and f"pocache_{kind}_cpu_ms" in r]
            if parts:
                print(f"{job:10} {state:10} task CPU (stock / POCache, medians over runs): " + ", ".join(parts))
            if "vanilla_map_read_ms" in r and "pocache_map_read_ms" in r:
                print(f"{job:10} {state:10} input read per map task (stock / POCache, medians over runs): "
                      f"mean {r['vanilla_map_read_ms']['median']:.0f} / {r['pocache_map_read_ms']['median']:.0f} ms, "
                      f"slowest {r['vanilla_map_read_max_ms']['median']:.0f} / "
                      f"{r['pocache_map_read_max_ms']['median']:.0f} ms")
        if "none" in row and "straggler" in row:
            # The goal: POCache's job with the straggler against its own without; and
            # how much the straggler cost stock (the goal asks for at least 1.5).
            row["pocache_straggler_over_no"] = round(
                row["straggler"]["pocache_ms"]["median"] / row["none"]["pocache_ms"]["median"], 3)
            row["vanilla_straggler_over_no"] = round(
                row["straggler"]["vanilla_ms"]["median"] / row["none"]["vanilla_ms"]["median"], 3)
            print(f"{job:10} straggler / none: stock {row['vanilla_straggler_over_no']:.2f},"
                  f" POCache {row['pocache_straggler_over_no']:.2f}")
        rows.append(row)
    doc = {"experiment": "mapreduce", "straggler_datanode": dn, "straggler_factor": float(factor),
           "input_mib": int(input_mib), "block_mib": int(block_mib), "rows": rows}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"ratios are POCache / stock HDFS medians; JSON in {out}")


def reads(none_file, straggler_file, out, dn, factor, rate=None):
    none, strag = json.load(open(none_file)), json.load(open(straggler_file))
    rows = []
    for a, b in zip(none["rows"], strag["rows"]):
        row = {"pattern": a["pattern"],
               "ratio_no_straggler": round(a["ratio_median"], 3),
               "ratio_straggler": round(b["ratio_median"], 3),
               "pocache_straggler_over_no": round(b["pocache_median_ms"] / a["pocache_median_ms"], 3)}
        if "pocache_file_mean_ms" in a and "pocache_file_mean_ms" in b:
            # One file's read: POCache's mean and p95 with the straggler against its own without.
            row["file_mean_straggler_over_no"] = round(b["pocache_file_mean_ms"] / a["pocache_file_mean_ms"], 3)
            row["file_p95_straggler_over_no"] = round(b["pocache_file_p95_ms"] / a["pocache_file_p95_ms"], 3)
        row.update({"none": a, "straggler": b})
        rows.append(row)
        print(f"{a['pattern']:6} POCache/stock: no straggler {a['ratio_median']:.3f}, with straggler "
              f"{b['ratio_median']:.3f}; POCache with/without straggler "
              f"{b['pocache_median_ms'] / a['pocache_median_ms']:.3f}"
              + (f"; one file's read with/without: mean {row['file_mean_straggler_over_no']:.3f},"
                 f" p95 {row['file_p95_straggler_over_no']:.3f}" if "file_mean_straggler_over_no" in row else ""))
    with open(out, "w") as f:
        json.dump({"experiment": "reads", "datanode_rate_mib_s": rate, "straggler_datanode": dn,
                   "straggler_factor": float(factor), "rows": rows}, f, indent=1)
    print(f"JSON in {out}")


def spark_rows(rows_file):
    try:
        return [json.loads(line) for line in open(rows_file) if line.strip()]
    except FileNotFoundError:
        return []


def spark_digest(rows_file, job):
    for r in spark_rows(rows_file):
        if r["job"] == job:
            print(r["digest"])
            return


def spark(rows_file, out, dn, factor, input_mib, block_mib, spark_version="3.3.4", dropin=""):
    rows_in = spark_rows(rows_file)
    order = []
    for r in rows_in:
        if r["job"] not in order:
            order.append(r["job"])
    rows = []
    ok_metrics = True
    print(f"{'job':10} {'straggler':10} {'vanilla ms':>22} {'pocache ms':>22} {'ratio':>6}  input bytes (v / p)")
    for job in order:
        row = {"job": job}
        for state in ("none", "straggler"):
            sel = {m: [r for r in rows_in if r["job"] == job and r["state"] == state and r["mode"] == m]
                   for m in ("vanilla", "pocache")}
            if not sel["vanilla"] or not sel["pocache"]:
                continue
            sv = stats([r["ms"] for r in sel["vanilla"]])
            sp = stats([r["ms"] for r in sel["pocache"]])
            ratio = sp["median"] / sv["median"]
            iv = sorted({r["input_bytes"] for r in sel["vanilla"]})
            ip = sorted({r["input_bytes"] for r in sel["pocache"]})
            same = iv == ip
            ok_metrics = ok_metrics and same
            row["ratio_straggler" if state == "straggler" else "ratio_no_straggler"] = round(ratio, 3)
            row[state] = {"vanilla_ms": sv, "pocache_ms": sp,
                          "pocache_manager_hits": [r.get("manager_hits", 0) for r in sel["pocache"]],
                          "pocache_proactive_opens": [r.get("proactive_opens", 0) for r in sel["pocache"]],
                          "vanilla_jvm_ms": stats([r["wall_ms"] for r in sel["vanilla"]]),
                          "pocache_jvm_ms": stats([r["wall_ms"] for r in sel["pocache"]]),
                          "vanilla_input_bytes": iv, "pocache_input_bytes": ip,
                          "input_metrics_equal": same}
            print(f"{job:10} {state:10} {sv['median']:8.0f} ({sv['min']:.0f}-{sv['max']:.0f}) "
                  f"{sp['median']:8.0f} ({sp['min']:.0f}-{sp['max']:.0f}) {ratio:6.3f}  "
                  f"{','.join(map(str, iv))} / {','.join(map(str, ip))}{'' if same else '  DIFFER'}")
        rows.append(row)
    doc = {"experiment": "spark", "spark": spark_version + " local[2]", "dropin": dropin, "straggler_datanode": dn,
           "straggler_factor": float(factor), "input_mib": int(input_mib), "block_mib": int(block_mib),
           "input_metrics_equal": ok_metrics, "rows": rows}
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"ratios are POCache / stock HDFS medians of the jobs' Spark action time; JSON in {out}")
    if not ok_metrics:
        print("Spark's input metrics differ between stock HDFS and POCache", file=sys.stderr)
        sys.exit(1)


def fsck_files():
    """Reads `hdfs fsck -files -blocks -locations` on stdin: [(path, [(DataNode index, block
    length), ...]), ...], the index being the <i> of 10.77.<i>.2."""
    import re
    files, current = [], None
    for line in sys.stdin:
        if line.startswith("/") and " bytes" in line:
            current = []
            files.append((line.split()[0], current))
        length = re.search(r" len=(\d+)", line)
        for dn in re.findall(r"DatanodeInfoWithStorage\[\d+\.\d+\.(\d+)\.\d+", line):
            if current is not None:
                current.append((int(dn), int(length.group(1)) if length else 0))
    return files


def shared_stripes(k="4"):
    """Reads fsck's listing on stdin; prints the files with a stripe (k consecutive blocks)
    two of whose blocks share a DataNode: one slow DataNode is then two slow pieces, more
    than m = 1 parity can mask, and a read of such a file measures that, not POCache."""
    k = int(k)
    for path, blocks in fsck_files():
        for s in range(0, len(blocks), k):
            dns = [dn for dn, _ in blocks[s:s + k]]
            if len(set(dns)) < len(dns):
                print(path)
                break


def pick_straggler(k="4"):
    """Reads `hdfs fsck -files -blocks -locations` on stdin; prints the DataNode index
    (the <i> of 10.77.<i>.2) holding most bytes in blocks that are alone in their stripe
    (k consecutive blocks of a file), i.e. the straggler m = 1 parity has most to mask.
    Bytes, not blocks: a file's short last block (a few KB) costs a reader next to nothing
    even on a slow DataNode."""
    k = int(k)
    files = [blocks for _, blocks in fsck_files()]
    held, rescuable = {}, {}
    for blocks in files:
        for s in range(0, len(blocks), k):
            stripe = blocks[s:s + k]
            dns = [dn for dn, _ in stripe]
            for dn, n in stripe:
                held[dn] = held.get(dn, 0) + n
                if dns.count(dn) == 1:
                    rescuable[dn] = rescuable.get(dn, 0) + n
    pool = rescuable or held
    best = max(sorted(pool), key=lambda dn: pool[dn]) if pool else 1
    print(best)
    print(f"straggler DataNode {best}: holds {held.get(best, 0) / 1048576:.1f} MiB of the input,"
          f" {rescuable.get(best, 0) / 1048576:.1f} MiB of it in blocks alone in their stripe (maskable by m = 1)",
          file=sys.stderr)


def stragglers(samples_file, out, dn, factor):
    """Samples: 'phase ms listed' lines; dn: the straggler's address (host, any port)."""
    phases = {}
    for line in open(samples_file):
        parts = line.split()
        if len(parts) != 3:
            continue
        phase, ms, listed = parts[0], int(parts[1]), parts[2]
        phases.setdefault(phase, []).append((ms, listed))
    rows = []
    for phase in ("none", "slow", "recovered"):
        samples = phases.get(phase, [])
        answered = [(ms, l) for ms, l in samples if l != "?"]
        n = len(answered)
        def has_straggler(l):
            return l != "-" and any(x.split(":")[0] == dn for x in l.split(","))
        def has_healthy(l):
            return l != "-" and any(x.split(":")[0] != dn for x in l.split(","))
        with_straggler = sum(1 for _, l in answered if has_straggler(l))
        with_healthy = sum(1 for _, l in answered if has_healthy(l))
        row = {"phase": phase, "samples": len(samples), "unanswered": len(samples) - n,
               "straggler_listed": with_straggler / n if n else None,
               "healthy_listed": with_healthy / n if n else None}
        if phase == "slow":
            first = next((ms for ms, l in answered if has_straggler(l)), None)
            row["first_listed_ms"] = first
            after = [l for ms, l in answered if first is not None and ms >= first]
            row["straggler_listed_after_first"] = (sum(1 for l in after if has_straggler(l)) / len(after)
                                                   if after else None)
            # Of all DataNodes listed over the phase, how many were the straggler.
            entries = [x for _, l in answered if l != "-" for x in l.split(",")]
            row["precision"] = (sum(1 for x in entries if x.split(":")[0] == dn) / len(entries)
                                if entries else None)
            row["recall"] = row["straggler_listed"]
        if phase == "recovered":
            last = max((ms for ms, l in answered if has_straggler(l)), default=None)
            row["cleared_after_ms"] = 0 if last is None else last + 2000
        rows.append(row)
    result = {"straggler": dn, "factor": float(factor), "interval_ms": 2000, "phases": rows}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    for r in rows:
        extra = ""
        if "first_listed_ms" in r:
            extra = "; first listed after %s ms, then in %s of samples; precision %s, recall %s" % (
                r["first_listed_ms"], fmt(r["straggler_listed_after_first"]), fmt(r["precision"]),
                fmt(r["recall"]))
        if "cleared_after_ms" in r:
            extra = "; cleared within %s ms" % r["cleared_after_ms"]
        print("%-10s %3d samples: straggler listed in %s, a healthy DataNode in %s%s" % (
            r["phase"], r["samples"], fmt(r["straggler_listed"]), fmt(r["healthy_listed"]), extra))
    print("wrote " + out)


def stragglers_runs(out, seconds, *run_files):
    """Combines experiment stragglers runs: every run, and per phase the median, min and max."""
    runs = [json.load(open(f)) for f in run_files]
    keys = ("straggler_listed", "healthy_listed", "first_listed_ms", "precision", "cleared_after_ms")
    summary = []
    for i, phase in enumerate(("none", "slow", "recovered")):
        row = {"phase": phase}
        for k in keys:
            vals = sorted(r["phases"][i][k] for r in runs if r["phases"][i].get(k) is not None)
            if vals:
                n = len(vals)
                med = vals[n // 2] if n % 2 else (vals[n // 2 - 1] + vals[n // 2]) / 2
                row[k] = {"median": med, "min": vals[0], "max": vals[-1]}
        summary.append(row)
    result = {"seconds_per_phase": int(seconds), "straggler": runs[0]["straggler"], "factor": runs[0]["factor"],
              "interval_ms": runs[0]["interval_ms"], "summary": summary, "runs": runs}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    print("%d run(s) of %s s phases (median, min-max):" % (len(runs), seconds))
    for row in summary:
        def span(k, pct=True):
            v = row.get(k)
            if v is None:
                return "n/a"
            f = fmt if pct else (lambda x: "%d ms" % x)
            return "%s (%s-%s)" % (f(v["median"]), f(v["min"]), f(v["max"]))
        line = "%-10s straggler listed %s, a healthy DataNode %s" % (
            row["phase"], span("straggler_listed"), span("healthy_listed"))
        if row["phase"] == "slow":
            line += "; first listed after %s; precision %s" % (span("first_listed_ms", False), span("precision"))
        if row["phase"] == "recovered":
            line += "; cleared within %s" % span("cleared_after_ms", False)
        print(line)
    print("wrote " + out)


def demo_runs(out, *files):
    """Per parity protection: median, min and max over demo runs of the ratios the targets name."""
    groups = {}
    for f in files:
        with open(f) as fh:
            d = json.load(fh)
        rows = {(r["mode"], r["layout"], r["straggler"]): r for r in d["rows"]}
        mean = lambda mode, layout, s: rows[(mode, layout, s)]["mean_ms"]
        g = groups.setdefault(d["config"].get("parity_protection", "none"), {})
        for name, value in [
                ("write_overhead", d["write_overhead"]),
                ("pocache_over_pr_no_straggler", mean("pocache", "contiguous", False) / mean("pr", "contiguous", False)),
                ("pocache_contiguous_no_straggler_ms", mean("pocache", "contiguous", False)),
                ("pocache_striped_no_straggler_ms", mean("pocache", "striped", False)),
                ("pocache_contiguous_straggler_over_no",
                 mean("pocache", "contiguous", True) / mean("pocache", "contiguous", False)),
                ("pocache_striped_straggler_over_no",
                 mean("pocache", "striped", True) / mean("pocache", "striped", False)),
                ("pocache_contiguous_straggler_p99_ms", rows[("pocache", "contiguous", True)]["p99_ms"])]:
            g.setdefault(name, []).append(value)
    result = {p: {name: stats(v) for name, v in g.items()} for p, g in groups.items()}
    with open(out, "w") as fh:
        json.dump({"files": list(files), "by_protection": result}, fh, indent=1)
    for p, g in sorted(result.items()):
        print("%s (%d runs)" % (p, len(next(iter(g.values()))["runs"])))
        for name, st in g.items():
            print("  %-38s median %8.3f  min %8.3f  max %8.3f" % (name, st["median"], st["min"], st["max"]))
    print("wrote " + out)


# The performance goals of the demo's ratios (medians over runs; write_overhead also per run).
DEMO_GOALS = [
    ("pocache_contiguous_straggler_over_no", 1.05, "contiguous, POCache with straggler / without (mean)"),
    ("pocache_striped_straggler_over_no", 1.10, "striped, POCache with straggler / without (mean)"),
    ("pocache_striped_straggler_p99_over_no", 1.5, "striped, p99 with straggler / without"),
    ("pocache_over_pr_no_straggler", 1.03, "no straggler, POCache / PR (contiguous, mean)"),
    ("write_overhead", 1.05, "write_overhead (and no run over 1.10)"),
]


def demo_ratios(d):
    rows = {(r["mode"], r["layout"], r["straggler"]): r for r in d["rows"]}
    mean = lambda mode, layout, s: rows[(mode, layout, s)]["mean_ms"]
    p99 = lambda mode, layout, s: rows[(mode, layout, s)]["p99_ms"]
    ratios = {
        "pocache_contiguous_straggler_over_no": mean("pocache", "contiguous", True) / mean("pocache", "contiguous", False),
        "pocache_striped_straggler_over_no": mean("pocache", "striped", True) / mean("pocache", "striped", False),
        "pocache_striped_straggler_p99_over_no": p99("pocache", "striped", True) / p99("pocache", "striped", False),
        "pocache_over_pr_no_straggler": mean("pocache", "contiguous", False) / mean("pr", "contiguous", False),
    }
    if "write_overhead" in d:  # absent with --write-size 0 (no write comparison)
        ratios["write_overhead"] = d["write_overhead"]
    return ratios


def demo_bench(out, *files):
    """Every ratio a performance goal names, over demo runs: median, min, max, runs that met it."""
    runs = []
    for f in files:
        with open(f) as fh:
            d = json.load(fh)
        if not d.get("bytes_verified", False):
            sys.exit("bench demo: %s did not verify its bytes" % f)
        runs.append(demo_ratios(d))
    doc = {"runs": len(runs), "files": list(files), "medians": {}, "min": {}, "max": {}, "met": {},
           "goals": {}, "every_run": {name: [r[name] for r in runs if name in r] for name, _, _ in DEMO_GOALS}}
    print("%d demo runs: median (min-max), runs meeting the goal" % len(runs))
    for name, goal, label in DEMO_GOALS:
        values = [r[name] for r in runs if name in r]
        if len(values) < len(runs):
            print("  %-52s not measured in every run (the demo's --write-size 0 skips the writes)" % label)
            del doc["every_run"][name]
            continue
        st = stats(values)
        met = sum(1 for v in values if v <= goal)
        ok = st["median"] <= goal and (name != "write_overhead" or st["max"] <= 1.10)
        doc["medians"][name], doc["min"][name], doc["max"][name] = st["median"], st["min"], st["max"]
        doc["met"][name] = met
        doc["goals"][name] = {"goal": goal, "median_meets": st["median"] <= goal, "meets": ok}
        print("  %-52s %.3f (%.3f-%.3f)  goal <= %.2f: %d of %d runs; median %s" % (
            label, st["median"], st["min"], st["max"], goal, met, len(values), "meets it" if ok else "does NOT"))
    with open(out, "w") as fh:
        json.dump(doc, fh, indent=1)
    print("wrote " + out)


def read_cpu(out, dn, factor, rate, *runs):
    """CPU per GiB per phase, file set and pattern: median/min/max over runs per mode, and
    POCache/stock of the medians and per run (runs pair a stock and a POCache JVM)."""
    by = {}
    listed = {}
    extra = {}
    jit_total = {}  # per mode: the JIT compiler threads' CPU seconds over each whole JVM
    for r in runs:
        phase, mode, run, was_listed, path = r.split(":", 4)
        listed[phase] = was_listed
        with open(path) as f:
            d = json.load(f)
        if d.get("jit_s_total") is not None:
            jit_total.setdefault(mode, []).append(d["jit_s_total"])
        if mode == "pocache":
            e = extra.setdefault(phase, {"proactive_opens": [], "fallbacks": []})
            e["proactive_opens"].append(d.get("proactive_opens"))
            e["fallbacks"].append(d.get("fallbacks"))
        for row in d["rows"]:
            key = (phase, "cached" if row["dir"].endswith("/cached") else "plain" if row["dir"].endswith("/plain")
                   else "writes", row["pattern"])
            cell = by.setdefault(key, {"stock": {}, "pocache": {}})
            cell[mode][int(run)] = row
    rows = []
    print("%-9s %-6s %-10s %22s %22s %7s %7s" % ("phase", "files", "pattern", "stock s CPU/GiB", "POCache s CPU/GiB",
                                             "ratio", "wall"))
    for (phase, files, pattern), cell in by.items():
        s = [cell["stock"][k]["cpu_s_per_gib_median"] for k in sorted(cell["stock"])]
        p = [cell["pocache"][k]["cpu_s_per_gib_median"] for k in sorted(cell["pocache"])]
        sw = [cell["stock"][k]["wall_ms_median"] for k in sorted(cell["stock"])]
        pw = [cell["pocache"][k]["wall_ms_median"] for k in sorted(cell["pocache"])]
        paired = [cell["pocache"][k]["cpu_s_per_gib_median"] / cell["stock"][k]["cpu_s_per_gib_median"]
                  for k in sorted(cell["stock"]) if k in cell["pocache"]]
        if not s or not p:
            continue
        row = {"phase": phase, "files": files, "pattern": pattern,
               "stock_cpu_s_per_gib": stats(s), "pocache_cpu_s_per_gib": stats(p),
               "ratio": statistics.median(p) / statistics.median(s), "ratio_per_run": stats(paired),
               "stock_wall_ms": stats(sw), "pocache_wall_ms": stats(pw),
               "wall_ratio": statistics.median(pw) / statistics.median(sw)}
        for mode in ("stock", "pocache"):
            # What the JIT threads still spent in the measured rounds (after a warm-up that lasts
            # until they are nearly idle), and how many warm-up rounds that took.
            jit = [cell[mode][k].get("jit_s_per_gib_median") for k in sorted(cell[mode])]
            if jit and all(x is not None for x in jit):
                row[mode + "_jit_s_per_gib"] = stats(jit)
            warm = [cell[mode][k].get("warmup_rounds") for k in sorted(cell[mode])]
            if warm and all(x is not None for x in warm):
                row[mode + "_warmup_rounds"] = stats(warm)
        counters = [cell["pocache"][k].get("pocache_counters") for k in sorted(cell["pocache"])]
        if all(counters):
            # POCache's read counters over each run's measured rounds (parity GETs, rebuilds, ...).
            row["pocache_counters_per_run"] = {c: [r.get(c) for r in counters] for c in counters[0]}
        rows.append(row)
        print("%-9s %-6s %-10s %7.3f (%5.3f-%5.3f) %7.3f (%5.3f-%5.3f) %7.3f %7.3f" % (
            phase, files, pattern, statistics.median(s), min(s), max(s), statistics.median(p), min(p), max(p),
            row["ratio"], row["wall_ratio"]))
    result = {"command": "scripts/pocache bench read-cpu", "datanode_rate_mib_s": rate,
              "straggler": {"datanode": dn, "factor": float(factor), "listed": listed.get("straggler")},
              "runs": max(len(c["stock"]) for c in by.values()) if by else 0,
              "pocache_counters": extra,
              "jit_s_per_jvm": {m: stats(v) for m, v in jit_total.items() if v}, "rows": rows}
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print("wrote " + out)


def ha(rows_file, out, dn, factor, input_mib, block_mib, rate, after, hadoop=None):
    """experiment ha: job times (ms) with a NameNode failover during each job, stock vs POCache."""
    if hadoop is None:  # the cluster's line, from the cluster.env beside the results directory
        env = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(rows_file))), "cluster.env")
        line = dict(l.strip().split("=", 1) for l in open(env) if "=" in l).get("hadoop", "3.1")
        hadoop = {"3.1": "3.1.4", "3.4": "3.4.1"}.get(line, line)
    rows = []
    for line in open(rows_file):
        f = line.split()
        if len(f) < 12:
            continue
        rows.append({"job": f[0], "straggler": f[1] == "straggler", "mode": f[2], "run": int(f[3]),
                     "ms": int(f[4]), "digest": f[5], "active_before": f[6], "active_after": f[7],
                     "failover_during_job": f[8] == "yes", "failed_tasks": int(f[9]),
                     "input_files_cached_on_active": int(f[10]), "manager_hits": int(f[11])})
    summary = []
    for job in sorted({r["job"] for r in rows}):
        for st in (False, True):
            entry = {"job": job, "straggler": st}
            for mode in ("vanilla", "pocache"):
                xs = [r["ms"] for r in rows if r["job"] == job and r["straggler"] == st and r["mode"] == mode]
                if xs:
                    entry[mode] = stats(xs)
            if "vanilla" in entry and "pocache" in entry:
                entry["ratio"] = entry["pocache"]["median"] / entry["vanilla"]["median"]
            summary.append(entry)
    digests = {}
    for r in rows:
        digests.setdefault(r["job"], set()).add(r["digest"])
    result = {"command": "scripts/pocache experiment ha", "hadoop": hadoop, "straggler_datanode": dn, "factor": float(factor),
              "input_mib": int(input_mib), "block_mib": int(block_mib), "rate": rate,
              "failover_after_s": int(after), "outputs_identical": all(len(d) == 1 for d in digests.values()),
              "failed_tasks": sum(r["failed_tasks"] for r in rows),
              "failovers_during_jobs": sum(1 for r in rows if r["failover_during_job"]), "jobs": len(rows),
              "summary": summary, "runs": rows}
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
    for e in summary:
        if "ratio" in e:
            print("ha: %-9s %-12s stock %.1f s, POCache %.1f s (%.3f)" % (
                e["job"], "straggler" if e["straggler"] else "no straggler", e["vanilla"]["median"] / 1000,
                e["pocache"]["median"] / 1000, e["ratio"]))
    print("ha: outputs identical: %s; failed tasks: %d; failovers during jobs: %d of %d; JSON in %s" % (
        result["outputs_identical"], result["failed_tasks"], result["failovers_during_jobs"], len(rows), out))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None


def rolling_windows(events_file):
    """(kind, name, host, from_ms, to_ms) per restart (shutdown -> up) and failover (start -> done)."""
    open_at, out = {}, []
    for line in open(events_file):
        f = line.split()
        if len(f) < 5 or f[1] not in ("dn", "nn", "failover"):
            continue
        t, kind, name, host, step = int(f[0]), f[1], f[2], f[3], f[4]
        if step in ("shutdown", "start"):
            open_at[(kind, name)] = t
        elif step in ("up", "done") and (kind, name) in open_at:
            out.append((kind, name, host, open_at.pop((kind, name)), t))
    return out


def rolling_one(ops_file, events_file):
    windows = rolling_windows(events_file)
    locs, ops, stats_line = {}, [], {}
    for line in open(ops_file):
        f = line.rstrip("\n").split("\t")
        if f[0] == "loc":
            locs[f[1]] = set(f[2].split(","))
        elif f[0] == "stats":
            stats_line = dict(x.split("=", 1) for x in f[1:] if "=" in x)
        elif len(f) >= 6:
            ops.append({"op": f[0], "pattern": f[1], "file": f[2], "from": int(f[3]), "to": int(f[4]),
                        "result": f[5], "detail": f[6] if len(f) > 6 else ""})
    for o in ops:
        over = [w for w in windows if o["from"] < w[4] and o["to"] > w[3]]
        o["hit"] = o["op"] == "read" and any(w[0] == "dn" and w[2] in locs.get(o["file"], ()) for w in over)
        o["nn"] = any(w[0] in ("nn", "failover") for w in over)
        o["calm"] = not over
        # During a DataNode's restart but not on it: what the restart costs every reader on
        # the machine (the restarted JVM's start, the dfsadmin commands), the hit reads' control.
        o["beside"] = o["op"] == "read" and not o["hit"] and not o["nn"] and any(w[0] == "dn" for w in over)
    return ops, windows, stats_line


def rolling(out, rate, settle, hadoop, ha, *specs):
    """experiment rolling-restart: per mode, operations, failures, and the reads that met the
    DataNode being restarted against the reads that met no restart."""
    modes = {}
    restarts = []
    for spec in specs:
        mode, run, ops_file, events_file = spec.split(":", 3)
        ops, windows, st = rolling_one(ops_file, events_file)
        m = modes.setdefault(mode, {"ops": [], "runs": 0, "proactive_opens": 0, "fallbacks": 0})
        m["ops"] += ops
        m["runs"] += 1
        m["proactive_opens"] += int(st.get("proactive_opens", 0))
        m["fallbacks"] += int(st.get("fallbacks", 0))
        restarts += [{"mode": mode, "run": int(run), "kind": w[0], "name": w[1], "s": (w[4] - w[3]) / 1000.0}
                     for w in windows]
    result = {"command": "scripts/pocache experiment rolling-restart", "hadoop": hadoop, "ha": ha == "on",
              "rate": rate, "settle_s": int(settle),
              "restart_nice": int(os.environ.get("POCACHE_RESTART_NICE", "0") or 0), "restarts": restarts,
              "modes": {}}
    for mode, m in modes.items():
        ops = m["ops"]
        reads = [o for o in ops if o["op"] == "read"]
        ok = [o for o in reads if o["result"] == "ok"]
        calm = [o["to"] - o["from"] for o in ok if o["calm"]]
        hit = [o["to"] - o["from"] for o in ok if o["hit"]]
        nn = [o["to"] - o["from"] for o in ok if o["nn"] and not o["hit"]]
        beside = [o["to"] - o["from"] for o in ok if o["beside"]]
        writes = [o for o in ops if o["op"] == "write"]
        entry = {
            "runs": m["runs"], "operations": len(ops),
            "failed": sum(1 for o in ops if o["result"] == "failed"),
            "wrong": sum(1 for o in ops if o["result"] == "wrong"),
            "hung": sum(1 for o in ops if o["result"] == "hung"),
            "reads": len(reads), "reads_failed": sum(1 for o in reads if o["result"] != "ok"),
            "reads_failed_hitting_restart": sum(1 for o in reads if o["result"] != "ok" and o["hit"]),
            "writes": len(writes), "writes_failed": sum(1 for o in writes if o["result"] != "ok"),
            "readbacks_failed": sum(1 for o in ops if o["op"] == "readback" and o["result"] != "ok"),
            "calm_reads": len(calm), "calm_mean_ms": statistics.mean(calm) if calm else None,
            "calm_p95_ms": pct(calm, 0.95),
            "hit_reads": len(hit), "hit_mean_ms": statistics.mean(hit) if hit else None,
            "hit_p95_ms": pct(hit, 0.95), "hit_max_ms": max(hit) if hit else None,
            "namenode_reads": len(nn), "namenode_mean_ms": statistics.mean(nn) if nn else None,
            "beside_reads": len(beside), "beside_mean_ms": statistics.mean(beside) if beside else None,
            "write_mean_ms": statistics.mean([o["to"] - o["from"] for o in writes if o["result"] == "ok"])
            if any(o["result"] == "ok" for o in writes) else None,
            "write_max_ms": max([o["to"] - o["from"] for o in writes if o["result"] == "ok"], default=None),
            "proactive_opens": m["proactive_opens"], "fallbacks": m["fallbacks"],
            "failures": sorted({o["detail"][:160] for o in ops if o["result"] != "ok"})[:10],
        }
        if entry["hit_mean_ms"] and entry["calm_mean_ms"]:
            entry["hit_over_calm"] = entry["hit_mean_ms"] / entry["calm_mean_ms"]
        if entry["hit_mean_ms"] and entry["beside_mean_ms"]:
            entry["hit_over_beside"] = entry["hit_mean_ms"] / entry["beside_mean_ms"]
        # The same per read pattern: a sequential read that rebuilds a block and a positional
        # read of the whole file pay for a restart differently.
        entry["patterns"] = {}
        for pattern in sorted({o["pattern"] for o in ok}):
            pc = [o["to"] - o["from"] for o in ok if o["calm"] and o["pattern"] == pattern]
            ph = [o["to"] - o["from"] for o in ok if o["hit"] and o["pattern"] == pattern]
            pe = {"calm_reads": len(pc), "calm_mean_ms": statistics.mean(pc) if pc else None,
                  "hit_reads": len(ph), "hit_mean_ms": statistics.mean(ph) if ph else None,
                  "hit_p95_ms": pct(ph, 0.95)}
            if pc and ph:
                pe["hit_over_calm"] = pe["hit_mean_ms"] / pe["calm_mean_ms"]
            entry["patterns"][pattern] = pe
        result["modes"][mode] = entry
        print("rolling-restart: %-8s %d operations, %d failed, %d wrong, %d hung; reads meeting the restarting"
              " DataNode %d, mean %s ms (p95 %s, max %s) vs %s ms with no restart under way (%s)" % (
                  mode, entry["operations"], entry["failed"], entry["wrong"], entry["hung"], entry["hit_reads"],
                  "%.0f" % entry["hit_mean_ms"] if entry["hit_mean_ms"] else "-", entry["hit_p95_ms"],
                  entry["hit_max_ms"], "%.0f" % entry["calm_mean_ms"] if entry["calm_mean_ms"] else "-",
                  "%.2fx" % entry["hit_over_calm"] if "hit_over_calm" in entry else "-"))
        print("rolling-restart: %-8s   reads during a DataNode's restart, not on it: %d, mean %s ms (hit reads %s of it)"
              % (mode, entry["beside_reads"], "%.0f" % entry["beside_mean_ms"] if entry["beside_mean_ms"] else "-",
                 "%.2fx" % entry["hit_over_beside"] if "hit_over_beside" in entry else "-"))
        for pattern, pe in entry["patterns"].items():
            print("rolling-restart: %-8s   %-5s meeting the restart %d, mean %s ms vs %s ms with none (%s)" % (
                mode, pattern, pe["hit_reads"], "%.0f" % pe["hit_mean_ms"] if pe["hit_mean_ms"] else "-",
                "%.0f" % pe["calm_mean_ms"] if pe["calm_mean_ms"] else "-",
                "%.2fx" % pe["hit_over_calm"] if "hit_over_calm" in pe else "-"))
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
    print("rolling-restart: JSON in %s" % out)


def federation(rows_file, out, mib, block, other_keys, hadoop):
    """experiment federation: per nameservice, what its Manager cached and served through ViewFs."""
    rows = []
    for line in open(rows_file):
        f = line.split()
        if len(f) >= 6:
            rows.append({"nameservice": f[0], "cached": int(f[1]) > 0, "hits_before": int(f[2]),
                         "hits_after": int(f[3]), "bytes_right": f[4] == "yes", "redis_keys": int(f[5])})
    result = {"command": "scripts/pocache experiment federation", "hadoop": hadoop, "mib": int(mib),
              "block_mib": int(block), "nameservices": rows, "keys_outside_the_prefixes": int(other_keys),
              "all_cached": all(r["cached"] for r in rows), "all_hit": all(r["hits_after"] > r["hits_before"]
                                                                            for r in rows),
              "all_bytes_right": all(r["bytes_right"] for r in rows)}
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
    print("federation: cached in both: %s; read hit its own Manager in both: %s; bytes right: %s; JSON in %s" % (
        result["all_cached"], result["all_hit"], result["all_bytes_right"], out))
    if not (result["all_cached"] and result["all_hit"] and result["all_bytes_right"]):
        sys.exit(1)


def fmt(x):
    return "n/a" if x is None else "%.1f%%" % (100 * x)


if __name__ == "__main__":
    {"mapreduce": mapreduce, "reads": reads, "spark": spark, "spark-digest": spark_digest,
     "pick-straggler": pick_straggler, "shared-stripes": shared_stripes, "stragglers": stragglers,
     "stragglers-runs": stragglers_runs, "demo-runs": demo_runs, "demo-bench": demo_bench,
     "read-cpu": read_cpu, "ha": ha, "rolling": rolling, "federation": federation}[sys.argv[1]](*sys.argv[2:])
