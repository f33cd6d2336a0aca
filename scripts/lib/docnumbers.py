#!/usr/bin/env python3
"""Writes the measured numbers of README.md and docs/*.md from the committed JSON.

Usage: scripts/lib/docnumbers.py [--check] [--root DIR]

A number that comes from a measurement sits between two markers that say where it
comes from, and this script writes it:

  <!--n FILE PATH FORMAT-->0.712<!--/n-->

FILE is a JSON file under docs/results/. PATH walks it: keys separated by '.', a list
element by index (rows[0]) or by fields (rows[job=wordcount] or
rows[mode=pocache,layout=striped,straggler=true]); 'A / B' divides two paths of the
same file. A PATH that starts with '@closest' walks instead the run of a
`bench demo` summary (FILE) whose ratios lie closest to their medians; '@closest_run'
is that run's number (1-based). FORMAT is a Python format spec ('g' for as is), with an
optional transform before a colon: 'pct:' (x 100), 'above:' ((x - 1) x 100, "took 7%
longer"), 's:' (milliseconds as seconds).

Whole blocks (tables, sample output) sit between

  <!--gen NAME FILE [ARG]-->
  ...
  <!--/gen-->

and are written by the generator NAME (GENERATORS below) from FILE (ARG: which rows,
for generators that take one, e.g. job=wordcount).

--check writes nothing and exits 1, naming each number or block that differs from what
it would write (a changed JSON value, a hand-edited number). `scripts/pocache report`
runs it without --check; `scripts/pocache test` runs --check.
"""
import json
import math
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INLINE = re.compile(r"<!--n ((?:(?!-->).)+?)-->(.*?)<!--/n-->")
BLOCK = re.compile(r"<!--gen (\S+) (\S+)( \S+)?-->\n(.*?)<!--/gen-->", re.S)


class DocError(Exception):
    pass


def load(root, name, cache={}):
    path = os.path.join(root, "docs", "results", name)
    if path not in cache:
        try:
            with open(path) as fh:
                cache[path] = json.load(fh)
        except OSError as e:
            raise DocError("cannot read %s: %s" % (path, e.strerror))
        except ValueError as e:
            raise DocError("%s is not JSON: %s" % (path, e))
    return cache[path]


def matches(row, conditions):
    for cond in conditions.split(","):
        key, _, want = cond.partition("=")
        have = row.get(key)
        have = json.dumps(have) if isinstance(have, bool) else str(have)
        if have != want:
            return False
    return True


def walk(doc, path):
    node = doc
    for part in re.findall(r"[^.\[\]]+|\[[^\]]*\]", path):
        if part.startswith("["):
            inner = part[1:-1]
            if not isinstance(node, list):
                raise DocError("%s: %s is not a list" % (path, part))
            if re.fullmatch(r"-?\d+", inner):
                node = node[int(inner)]
            else:
                found = [r for r in node if isinstance(r, dict) and matches(r, inner)]
                if len(found) != 1:
                    raise DocError("%s: %d elements match [%s]" % (path, len(found), inner))
                node = found[0]
        else:
            if not isinstance(node, dict) or part not in node:
                raise DocError("%s: no key '%s'" % (path, part))
            node = node[part]
    return node


def closest_run(root, summary_name):
    """The index (0-based) and JSON of the summary's run whose ratios lie closest to their medians."""
    s = load(root, summary_name)
    best = None
    for i, f in enumerate(s["files"]):
        dist = 0.0
        for name, values in s["every_run"].items():
            median = s["medians"].get(name)
            if median and i < len(values) and values[i] > 0:
                dist += abs(math.log(values[i] / median))
        if best is None or dist < best[0]:
            best = (dist, i, f)
    if best is None:
        raise DocError("%s lists no runs" % summary_name)
    rel = os.path.relpath(os.path.join(root, best[2]), os.path.join(root, "docs", "results"))
    return best[1], load(root, rel)


def value(root, name, path):
    if " / " in path:
        a, b = path.split(" / ", 1)
        return value(root, name, a) / value(root, name, b)
    if path == "@closest_run":
        return closest_run(root, name)[0] + 1
    if path.startswith("@closest."):
        return walk(closest_run(root, name)[1], path[len("@closest."):])
    return walk(load(root, name), path)


def render(v, fmt):
    transform, _, spec = fmt.rpartition(":")
    if transform == "pct":
        v = v * 100
    elif transform == "above":
        v = (v - 1) * 100
    elif transform == "s":
        v = v / 1000
    elif transform:
        raise DocError("unknown transform '%s:'" % transform)
    if isinstance(v, (list, dict)):
        raise DocError("a number is wanted, the path gives %s" % type(v).__name__)
    return format(v, spec) if spec else str(v)


# --- blocks --------------------------------------------------------------------

DEMO_COLUMNS = "%-9s %-11s %-9s %6s %10s %10s %10s %10s"
README_ROWS = [("vanilla", "contiguous", False), ("pocache", "contiguous", False), ("vanilla", "contiguous", True),
               ("pr", "contiguous", True), ("pocache", "contiguous", True), ("vanilla", "striped", True),
               ("pocache", "striped", True)]


def demo_table(run, which=None):
    lines = [DEMO_COLUMNS % ("mode", "layout", "straggler", "reads", "mean_ms", "p50_ms", "p95_ms", "p99_ms")]
    rows = run["rows"]
    if which is not None:
        rows = [next(r for r in rows if (r["mode"], r["layout"], r["straggler"]) == w) for w in which]
    for r in rows:
        lines.append(DEMO_COLUMNS % (r["mode"], r["layout"], "yes" if r["straggler"] else "no", r["reads"],
                                     "%.1f" % r["mean_ms"], "%.1f" % r["p50_ms"], "%.1f" % r["p95_ms"],
                                     "%.1f" % r["p99_ms"]))
    return lines


def gen_demo_sample(root, name):
    """The README's rows of the run closest to the medians, as the demo prints them."""
    return ["```"] + demo_table(closest_run(root, name)[1], README_ROWS) + ["```"]


def gen_demo_sample_all(root, name):
    """Every row of the run closest to the medians, and its slowdowns."""
    run = closest_run(root, name)[1]
    lines = demo_table(run)
    means = {(r["mode"], r["layout"], r["straggler"]): r["mean_ms"] for r in run["rows"]}
    for mode, layout, straggler in [(m, l, s) for (m, l, s) in means if s]:
        if (mode, layout, False) in means:
            lines.append("straggler slowdown (mean): %-8s %-11s %5.2fx" % (
                mode, layout, means[(mode, layout, True)] / means[(mode, layout, False)]))
    lines.append("bytes verified: %s" % ("yes, every read" if run.get("bytes_verified") else "NO"))
    return ["```"] + lines + ["```"]


GOAL_LABELS = [
    ("pocache_contiguous_straggler_over_no", "POCache contiguous: mean with a 1/10 straggler / without"),
    ("pocache_striped_straggler_over_no", "POCache striped: mean with a 1/10 straggler / without"),
    ("pocache_striped_straggler_p99_over_no", "POCache striped: p99 with a 1/10 straggler / without"),
    ("pocache_over_pr_no_straggler", "POCache / k parallel preads, no straggler (mean)"),
    ("write_overhead", "POCache write / stock HDFS write (64 MiB files)"),
]


def gen_demo_goals(root, name):
    """The performance table: each goal's ratio over the runs, median (min-max), runs meeting it."""
    s = load(root, name)
    lines = ["| ratio | goal | median (min-max) over %d runs | runs meeting the goal |" % s["runs"],
             "|---|---|---|---|"]
    for key, label in GOAL_LABELS:
        if key not in s["medians"]:
            continue
        lines.append("| %s | <= %.2f | %.3f (%.3f-%.3f) | %d of %d |" % (
            label, s["goals"][key]["goal"], s["medians"][key], s["min"][key], s["max"][key], s["met"][key],
            len(s["every_run"][key])))
    return lines


def gen_job_ratios(root, name):
    """README's table of unmodified jobs: POCache's time over stock's, with and without a straggler."""
    mr = load(root, name)
    spark = load(root, "cluster/spark.json")
    jobs = [("MapReduce " + r["job"], r) for r in mr["rows"]]
    jobs += [("Spark word count", walk(spark, "rows[job=wordcount]"))]
    lines = ["| job | " + " | ".join(j for j, _ in jobs) + " |", "|---" * (len(jobs) + 1) + "|"]
    lines.append("| POCache / stock, 1/%g straggler | " % mr["straggler_factor"]
                 + " | ".join("%.3f" % r["ratio_straggler"] for _, r in jobs) + " |")
    lines.append("| POCache / stock, no straggler | "
                 + " | ".join("%.3f" % r["ratio_no_straggler"] for _, r in jobs) + " |")
    return lines


ROW_LABELS = {
    "wordcount": "wordcount", "sort": "sort", "terasort": "terasort",
    "seq": "`seq` (4 KiB `read()` calls, as `hdfs dfs -cat`)",
    "split": "`split` (each block its own stream, as a task)",
    "pread": "`pread` (one whole-file positional read)",
    "parquet": "Parquet write, read, aggregate",
}


def spread(x):
    """'43.5 s (40.1-43.8)' from a stats dict or a list of runs (ms); '6.16 s' for one run."""
    runs = x["runs"] if isinstance(x, dict) else x
    med = sorted(runs)[len(runs) // 2] if len(runs) % 2 else (sorted(runs)[len(runs) // 2 - 1]
                                                             + sorted(runs)[len(runs) // 2]) / 2
    if len(runs) == 1:
        return "%.2f s" % (med / 1000)
    if med < 2000:
        return "%.0f ms (%.0f-%.0f)" % (med, min(runs), max(runs))
    return "%.1f s (%.1f-%.1f)" % (med / 1000, min(runs) / 1000, max(runs) / 1000)


def gen_times(root, name, only=None):
    """A cluster experiment's table: per job or pattern, stock's and POCache's median time (min-max)
    over the runs and their ratio, without and with the straggler."""
    d = load(root, name)
    factor = d.get("straggler_factor", 10)
    lines = ["| %s | no straggler: stock | POCache | ratio | 1/%g straggler: stock | POCache | ratio |" % (
        "pattern" if "pattern" in d["rows"][0] else "job", factor), "|---|---|---|---|---|---|---|"]
    for r in d["rows"]:
        if only and not matches(r, only):
            continue
        key = r.get("job", r.get("pattern"))
        label = ROW_LABELS.get(key, key)
        if key == "wordcount" and name.startswith("cluster/spark"):
            label = "word count (RDD)"
        cells = [label]
        for state, ratio in (("none", "ratio_no_straggler"), ("straggler", "ratio_straggler")):
            cells += [spread(r[state]["vanilla_ms"]), spread(r[state]["pocache_ms"]), "%.3f" % r[ratio]]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def gen_read_tail(root, name):
    """experiment reads: one file's read, mean and p95 per mode, without and with the straggler,
    and POCache's with/without ratios (rows written before files were timed alone are left out)."""
    d = load(root, name)
    lines = ["| pattern | no straggler: stock mean (p95) | POCache mean (p95) | straggler: stock mean (p95) |"
             " POCache mean (p95) | POCache with / without: mean | p95 |", "|---|---|---|---|---|---|---|"]
    for r in d["rows"]:
        if "file_mean_straggler_over_no" not in r:
            continue
        cells = [ROW_LABELS.get(r["pattern"], r["pattern"])]
        for state in ("none", "straggler"):
            for mode in ("vanilla", "pocache"):
                cells.append("%.0f ms (%.0f)" % (r[state][mode + "_file_mean_ms"], r[state][mode + "_file_p95_ms"]))
        cells += ["**%.2f**" % r["file_mean_straggler_over_no"], "**%.2f**" % r["file_p95_straggler_over_no"]]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def gen_spark_lines(root, name):
    """POCache / stock medians for each Spark line (POCache's min-max in ms): FILE is a
    comma-separated list of spark-<line>.json names under cluster/."""
    lines = ["| Spark | word count, no straggler | with straggler | Parquet, no straggler | with straggler |",
             "|---|---|---|---|---|"]
    for f in name.split(","):
        d = load(root, "cluster/" + f)
        cells = [d["spark"].split()[0]]
        for job in ("wordcount", "parquet"):
            r = walk(d, "rows[job=%s]" % job)
            for state, ratio in (("none", "ratio_no_straggler"), ("straggler", "ratio_straggler")):
                p = r[state]["pocache_ms"]
                cells.append("%.3f (%d-%d)" % (r[ratio], p["min"], p["max"]))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def pct(x):
    return "%.1f%%" % (100 * x) if x not in (0, 1) else "%d%%" % (100 * x)


def gen_straggler_list(root, name):
    """The straggler list's phases over the runs of `experiment stragglers`."""
    d = load(root, name)
    ph = {p["phase"]: p for p in d["summary"]}

    def mm(x, f=pct):
        return "%s (%s-%s)" % (f(x["median"]), f(x["min"]), f(x["max"]))

    def secs(x):
        return "%d s" % round(x / 1000)

    slow, rec = ph["slow"], ph["recovered"]
    return ["| phase | straggler listed | a healthy DataNode listed | |", "|---|---|---|---|",
            "| no straggler | - | %s | |" % mm(ph["none"]["healthy_listed"]),
            "| DataNode slow | %s | %s | first listed %s after it slowed; precision %s |" % (
                mm(slow["straggler_listed"]), mm(slow["healthy_listed"]), mm(slow["first_listed_ms"], secs),
                pct(slow["precision"]["median"])),
            "| recovered | %s, its first seconds | %s | cleared within %s |" % (
                mm(rec["straggler_listed"]), mm(rec["healthy_listed"]), mm(rec["cleared_after_ms"], secs))]


def gen_manager(root, name):
    """`bench manager` over runs (FILE: a directory of run-*.json): per target, phase and
    thread count, calls/s and p99 as median (min-max), p50 as median."""
    import statistics
    base = os.path.join(root, "docs", "results", name)
    runs = [load(root, os.path.join(name, f)) for f in sorted(os.listdir(base)) if f.endswith(".json")]
    if not runs:
        raise DocError("no runs in " + base)
    keys = []
    for r in runs[0]["results"]:
        keys.append((r["threads"], r["phase"], r["target"]))
    keys.sort(key=lambda k: (k[0], k[1] != "closed-loop", k[2] != "manager"))
    lines = ["| target | phase | threads | calls/s | p50 | p99 |", "|---|---|---|---|---|---|"]
    for threads, phase, target in keys:
        rs = [next(x for x in run["results"] if (x["threads"], x["phase"], x["target"]) == (threads, phase, target))
              for run in runs]
        rate = [x["lookups_per_s"] for x in rs]
        p50 = statistics.median(x["p50_ms"] for x in rs)
        p99 = [x["p99_ms"] for x in rs]
        label = "Manager lookup" if target == "manager" else "NameNode getBlockLocations"
        ph = "closed loop" if phase == "closed-loop" else "paced at {:,}/s".format(rs[0]["target_rate"])
        rate_s = "{:,.0f} ({:,.0f}-{:,.0f})".format(statistics.median(rate), min(rate), max(rate)) \
            if phase == "closed-loop" else "{:,.0f}".format(statistics.median(rate))
        lines.append("| %s | %s | %d | %s | %.2f ms | %.2f ms (%.2f-%.2f) |" % (
            label, ph, threads, rate_s, p50, statistics.median(p99), min(p99), max(p99)))
    return lines


def gen_protection(root, name):
    """`demo --protection P` runs summarized by `summarize.py demo-runs`: per setting, each ratio's
    median (min-max)."""
    d = load(root, name)
    cols = ["write_overhead", "pocache_over_pr_no_straggler", "pocache_contiguous_straggler_over_no",
            "pocache_striped_straggler_over_no"]
    lines = ["| protection | write_overhead | POCache / PR, no straggler | contiguous, straggler / none |"
             " striped, straggler / none |", "|---|---|---|---|---|"]
    for prot, ratios in d["by_protection"].items():
        lines.append("| %s | " % prot + " | ".join("%.3f (%.3f-%.3f)" % (
            ratios[c]["median"], ratios[c]["min"], ratios[c]["max"]) for c in cols) + " |")
    return lines


def gen_csac_hits(root, name):
    """Experiment 11 in the simulator: straggler hit ratio by cache size, CSAC as the Manager
    runs it ("keep") and as the paper's Algorithm 1, beside plain LRU and LFU."""
    d = load(root, name)
    hit = {(r["strategy"], r["cache_size"]): r["straggler_hit_ratio"] for r in d["rows"]}
    lines = ["| T | CSAC+LRU keep / paper | CSAC+LFU | CSAC+ARC | CSAC+S3-FIFO | LRU | LFU |",
             "|---|---|---|---|---|---|---|"]
    for t in (10, 20, 40, 60):
        cells = [str(t)]
        for e in ("lru", "lfu", "arc", "s3fifo"):
            cells.append("%.2f / %.2f%%" % (100 * hit[("csac+" + e, t)], 100 * hit[("paper-csac+" + e, t)]))
        cells += ["%.2f%%" % (100 * hit[("lru", t)]), "%.2f%%" % (100 * hit[("lfu", t)])]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def gen_csac_mix(root, name):
    """The mix of file sizes in the simulator: straggler hit ratio per strategy, and straggler
    hits per 1,000 reads each cached block avoided (against no cache)."""
    d = load(root, name)
    hit = {(r["strategy"], r["sensing"], r["cache_size"]): r["straggler_hit_ratio"] for r in d["rows"]}
    lines = ["| T | CSAC+benefit | CSAC+LFU | CSAC+LRU | SP-Cache | benefit per block: CSAC+benefit / SP-Cache |",
             "|---|---|---|---|---|---|"]
    for sens in ("exact", "moving"):
        for t in (40, 80):
            base = hit[("lru", sens, 0)]
            cells = ["%d, %s" % (t, sens)] + ["%.2f%%" % (100 * hit[(st, sens, t)]) for st in
                                               ("csac+benefit", "csac+lfu", "csac+lru", "sp-cache")]
            cells.append("%.2f / %.2f" % (1000 * (base - hit[("csac+benefit", sens, t)]) / t,
                                          1000 * (base - hit[("sp-cache", sens, t)]) / t))
            lines.append("| " + " | ".join(cells) + " |")
    return lines


CPU_PATTERNS = {
    "seq4k": "4 KiB `read()` calls", "seq64k": "64 KiB `read()` calls", "seq1m": "1 MiB `read()` calls",
    "bytebuffer": "`read(ByteBuffer)`, 64 KiB", "pread": "whole-file positional read",
    "pread4m": "4 MiB positional reads", "write": "writes of 2-block files, 64 KiB calls (POCache: `integrity`)",
    "write-stripe": "writes of full-stripe files, 64 KiB calls (POCache: `integrity`)",
}
CPU_FILES = {"cached": "cached parity", "plain": "no parity", "writes": "-"}


def gen_read_cpu(root, name):
    """`bench read-cpu`: per phase, file set and pattern, the client JVM's CPU seconds per GiB,
    stock's and POCache's medians (min-max) over the runs, and POCache / stock."""
    d = load(root, name)
    lines = ["| straggler | files | pattern | stock, s CPU / GiB | POCache, s CPU / GiB | POCache / stock |",
             "|---|---|---|---|---|---|"]
    for r in d["rows"]:
        st, po = r["stock_cpu_s_per_gib"], r["pocache_cpu_s_per_gib"]
        phase = "none" if r["phase"] == "none" else "1/%g" % d["straggler"]["factor"]
        lines.append("| %s | %s | %s | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | **%.2f** |" % (
            phase, CPU_FILES.get(r["files"], r["files"]), CPU_PATTERNS.get(r["pattern"], r["pattern"]),
            st["median"], st["min"], st["max"], po["median"], po["min"], po["max"], r["ratio"]))
    return lines


def gen_profile_top(root, name, only=None):
    """The first lines of a `bench read-cpu --profile` summary (a text file under docs/results)."""
    n = 8
    path = os.path.join(root, "docs", "results", name)
    try:
        with open(path) as f:
            text = f.read().splitlines()
    except OSError as e:
        raise DocError("cannot read %s: %s" % (path, e.strerror))
    out, taken = [], 0
    for line in text[1:]:
        if not line.startswith(" "):
            out.append(line)  # a section's heading
            taken = 0
        elif taken < n:
            out.append(line)
            taken += 1
    return ["```"] + out + ["```"]


def gen_ha(root, name):
    """experiment ha: per job, stock's and POCache's median time (min-max) with a NameNode failover
    during each run, and their ratio, without and with the straggler; then what was checked."""
    d = load(root, name)
    # Runs made before the JSON named its Hadoop were on the cluster's default, 3.1.4.
    lines = ["| Hadoop %s: job (failover during each run) | no straggler: stock | POCache | ratio | 1/%g straggler:"
             " stock | POCache | ratio |" % (d.get("hadoop", "3.1.4"), d["factor"]), "|---|---|---|---|---|---|---|"]
    for job in sorted({e["job"] for e in d["summary"]}):
        cells = [job]
        for st in (False, True):
            e = [x for x in d["summary"] if x["job"] == job and x["straggler"] == st]
            if e and "ratio" in e[0]:
                cells += [spread(e[0]["vanilla"]), spread(e[0]["pocache"]), "%.3f" % e[0]["ratio"]]
            else:
                cells += ["-", "-", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    cached = [r["input_files_cached_on_active"] for r in d["runs"] if r["mode"] == "pocache"]
    lines.append("")
    lines.append("%d jobs, %d with the failover while they ran; outputs identical across modes and runs: %s; failed"
                 " tasks: %d; input files the active NameNode's Manager listed as cached after each POCache job: %s."
                 % (d["jobs"], d["failovers_during_jobs"], "yes" if d["outputs_identical"] else "NO",
                    d["failed_tasks"], "-".join(str(x) for x in sorted(set(cached))) if cached else "-"))
    return lines


def gen_rolling(root, name):
    """experiment rolling-restart: stock HDFS and POCache side by side, one column each."""
    d = load(root, name)
    modes = [m for m in ("vanilla", "pocache") if m in d["modes"]]
    label = {"vanilla": "stock HDFS", "pocache": "POCache"}

    def ms(x):
        return "-" if x is None else "%.0f" % x

    def row(title, f):
        return "| %s | %s |" % (title, " | ".join(f(d["modes"][m]) for m in modes))
    what = "Hadoop %s%s, DataNodes %s" % (d["hadoop"], ", HA pair" if d["ha"] else "",
                                         "unshaped" if d["rate"] == "none" else "at %s MiB/s" % d["rate"])
    if d.get("restart_nice"):
        what += ", restarts at nice %d" % d["restart_nice"]
    lines = ["| %s | %s |" % (what, " | ".join(label[m] for m in modes)), "|---" * (len(modes) + 1) + "|",
             row("rolling restarts under load", lambda e: "%d" % e["runs"]),
             row("operations (reads, writes, read-backs)", lambda e: "%d" % e["operations"]),
             row("failed / wrong / hung", lambda e: "%d / %d / %d" % (e["failed"], e["wrong"], e["hung"])),
             row("reads with no restart under way: mean (p95) ms",
                 lambda e: "%s (%s)" % (ms(e["calm_mean_ms"]), ms(e["calm_p95_ms"]))),
             row("reads that met the DataNode being restarted: count, mean (p95, max) ms",
                 lambda e: "%d: %s (%s, %s)" % (e["hit_reads"], ms(e["hit_mean_ms"]), ms(e["hit_p95_ms"]),
                                                ms(e["hit_max_ms"]))),
             row("**their mean / the no-restart mean**",
                 lambda e: "**%.2f**" % e["hit_over_calm"] if "hit_over_calm" in e else "-")]
    for pattern, title in (("seq", "front to back in 64 KiB calls"), ("pread", "one positional read")):
        if all(pattern in d["modes"][m].get("patterns", {}) for m in modes):
            lines.append(row("of them %s: count, mean ms / no-restart mean ms (ratio)" % title,
                             lambda e: "%d: %s / %s (%s)" % (
                                 e["patterns"][pattern]["hit_reads"], ms(e["patterns"][pattern]["hit_mean_ms"]),
                                 ms(e["patterns"][pattern]["calm_mean_ms"]),
                                 "%.2f" % e["patterns"][pattern]["hit_over_calm"]
                                 if "hit_over_calm" in e["patterns"][pattern] else "-")))
    if all("beside_mean_ms" in d["modes"][m] for m in modes):
        lines += [row("reads during a DataNode's restart of files with no block on it: count, mean ms",
                      lambda e: "%d: %s" % (e["beside_reads"], ms(e["beside_mean_ms"]))),
                  row("**reads that met the restarting DataNode / these**",
                      lambda e: "**%.2f**" % e["hit_over_beside"] if "hit_over_beside" in e else "-")]
    lines += [row("reads during a NameNode restart or failover: count, mean ms",
                  lambda e: "%d: %s" % (e["namenode_reads"], ms(e["namenode_mean_ms"]))),
              row("writes of 32 MiB: mean (max) ms", lambda e: "%s (%s)" % (ms(e["write_mean_ms"]),
                                                                           ms(e["write_max_ms"])))]
    dn = sorted(r["s"] for r in d["restarts"] if r["kind"] == "dn")
    nn = sorted(r["s"] for r in d["restarts"] if r["kind"] == "nn")
    lines.append("")
    text = "A DataNode's restart, from `dfsadmin -shutdownDatanode` until its block reports were in, took %.1f s" \
           " (median of %d; %.1f-%.1f)" % (statistics.median(dn), len(dn), dn[0], dn[-1]) if dn else ""
    if nn:
        text += "; a NameNode's, until it was out of safe mode as standby, %.1f s (median of %d)" % (
            statistics.median(nn), len(nn))
    lines.append(text + ".")
    return lines


def gen_federation(root, name):
    """experiment federation: one row per nameservice."""
    d = load(root, name)
    lines = ["| Hadoop %s, viewfs://pocache-fed/: /nsX/ex/fed/data.bin (%d MiB) | cached by its nameservice's"
             " Manager | read through ViewFs: bytes right | Manager hits before -> after | Redis keys under"
             " `pocache:<ns>:` |" % (d["hadoop"], d["mib"]), "|---|---|---|---|---|"]
    for r in d["nameservices"]:
        lines.append("| %s | %s | %s | %d -> %d | %d |" % (r["nameservice"], "yes" if r["cached"] else "NO",
                                                          "yes" if r["bytes_right"] else "NO", r["hits_before"],
                                                          r["hits_after"], r["redis_keys"]))
    lines.append("")
    lines.append("Keys outside the two prefixes: %d." % d["keys_outside_the_prefixes"])
    return lines


def gen_alternatives(root, name):
    """experiment alternatives: per layout, job and straggler, each mode's median job time
    (min-max) and its ratio to stock's; then storage per layout and the issue's goals."""
    d = load(root, name)
    modes = [m for m in ("stock", "slownode", "speculation", "pocache", "pocache-spec")
             if any(e["mode"] == m for e in d["summary"])]
    lines = ["| layout | job | straggler | " + " | ".join(modes) + " |", "|" + "---|" * (3 + len(modes))]
    keys = []
    for e in d["summary"]:
        if (e["layout"], e["job"], e["straggler"]) not in keys:
            keys.append((e["layout"], e["job"], e["straggler"]))
    for k in keys:
        # Each layout, job and straggler has its straggler's factor (JSONs before that: the file's).
        f = [x.get("straggler_factor") for x in d["summary"] if (x["layout"], x["job"], x["straggler"]) == k]
        f = f[0] if f and f[0] else d["factor"] if k[2] == "net" else d.get("cpu_factor", 10)
        cells = [k[0], k[1], {"none": "none", "net": "network 1/%g" % f, "cpu": "CPU 1/%g" % f}.get(k[2], k[2])]
        for m in modes:
            e = [x for x in d["summary"] if (x["layout"], x["job"], x["straggler"], x["mode"]) == k + (m,)]
            if not e:
                cells.append("-")
            elif m == "stock":
                cells.append(spread(e[0]["ms"]))
            else:
                cells.append("%s, **%.2f**" % (spread(e[0]["ms"]), e[0]["vs_stock"]))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    st = d["storage"]
    lines.append("Bytes stored per byte of input: " + "; ".join(
        "%s %.2f (with POCache's parity %.2f)" % (l, st[l]["stock_per_user"], st[l]["pocache_per_user"])
        for l in ("rep1", "rep3", "rs-6-3", "rs-3-2") if l in st) + ".")
    met = [g for g in d["goals"] if g["met"] is not None]
    lines.append("Outputs identical across modes: %s. Goals met: %d of %d%s." % (
        "yes" if d["outputs_identical"] else "NO", sum(1 for g in met if g["met"]), len(met),
        ("; %d not applicable (the straggler cost stock less than 1.5x)" % sum(1 for g in d["goals"] if "not_applicable" in g)
         if any("not_applicable" in g for g in d["goals"]) else "")
        + ("; %d not measured (no runs of a layout or mode they compare)" % sum(1 for g in d["goals"] if "not_measured" in g)
           if any("not_measured" in g for g in d["goals"]) else "")))
    return lines


GENERATORS = {"read-tail": gen_read_tail, "alternatives": gen_alternatives, "federation": gen_federation, "rolling": gen_rolling, "ha": gen_ha, "read-cpu": gen_read_cpu, "profile-top": gen_profile_top, "csac-mix": gen_csac_mix, "csac-hits": gen_csac_hits, "protection": gen_protection, "manager": gen_manager, "times": gen_times, "spark-lines": gen_spark_lines, "straggler-list": gen_straggler_list, "demo-sample": gen_demo_sample, "demo-sample-all": gen_demo_sample_all,
              "demo-goals": gen_demo_goals, "job-ratios": gen_job_ratios}


# --- pages ---------------------------------------------------------------------

def pages(root):
    out = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    out += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    return out


def rewrite(root, text, where, problems, errors):
    def inline(m):
        spec, old = m.group(1), m.group(2)
        parts = spec.split(" ")
        if len(parts) < 3:
            errors.append("%s: '<!--n %s-->' needs a FILE, a PATH and a FORMAT" % (where, spec))
            return m.group(0)
        name, path, fmt = parts[0], " ".join(parts[1:-1]), parts[-1]
        try:
            new = render(value(root, name, path), fmt)
        except DocError as e:
            errors.append("%s: %s %s: %s" % (where, name, path, e))
            return m.group(0)
        if new != old:
            problems.append("%s: %s %s is %s, the page says %s" % (where, name, path, new, old))
        return "<!--n %s-->%s<!--/n-->" % (spec, new)

    def block(m):
        gen, name, arg, old = m.group(1), m.group(2), (m.group(3) or "").strip(), m.group(4)
        if gen not in GENERATORS:
            errors.append("%s: no generator '%s' (have: %s)" % (where, gen, ", ".join(sorted(GENERATORS))))
            return m.group(0)
        try:
            new = "\n".join(GENERATORS[gen](root, name, *([arg] if arg else []))) + "\n"
        except DocError as e:
            errors.append("%s: %s %s: %s" % (where, gen, name, e))
            return m.group(0)
        if new != old:
            problems.append("%s: block %s from %s differs from what %s writes" % (where, gen, name, name))
        return "<!--gen %s %s%s-->\n%s<!--/gen-->" % (gen, name, " " + arg if arg else "", new)

    return INLINE.sub(inline, BLOCK.sub(block, text))


def main(argv):
    check = "--check" in argv
    root = ROOT
    if "--root" in argv:
        root = os.path.abspath(argv[argv.index("--root") + 1])
    problems, errors, count = [], [], 0
    for page in pages(root):
        with open(page) as fh:
            text = fh.read()
        where = os.path.relpath(page, root)
        count += len(INLINE.findall(text)) + len(BLOCK.findall(text))
        before = len(problems)
        new = rewrite(root, text, where, problems, errors)
        if not check and new != text:
            with open(page, "w") as fh:
                fh.write(new)
            print("docnumbers.py: wrote %s (%d changes)" % (where, len(problems) - before))
    if not check and errors:
        print("docnumbers.py: %d markers could not be written:" % len(errors))
        for p in errors:
            print("  " + p)
        return 1
    if check:
        if problems or errors:
            print("docnumbers.py: %d measured numbers differ from their JSON (scripts/pocache report rewrites them)"
                  " and %d markers cannot be written:" % (len(problems), len(errors)))
            for p in problems + errors:
                print("  " + p)
            return 1
        print("docnumbers.py: %d generated numbers and blocks agree with their JSON" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
