#!/usr/bin/env python3
"""`pocache experiment alternatives`: the straggler pick and the JSON summary.

  alternatives.py pick K < fsck-output
      the DataNode (1-based, from its address 10.77.<i>.2) holding the most data bytes of
      the files fsck -files -blocks -locations listed: every replica of a replicated block,
      the data units (index < K) of a striped block group (K = 0: replicated)
  alternatives.py summarize ROWS STORAGE OUT WORK key=value...
      ROWS: "layout job state mode run ms digest throughput straggler factor input" per job run
      (factor: the straggler's, "-" for none; input: when the job's input was written);
      STORAGE: "layout user_bytes hdfs_bytes parity_bytes" per layout; WORK: the job logs
      (<log>.reads: tasks' time in read calls, <log>.jhist: the job's history)
"""
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import job_history, read_times, stats  # noqa: E402

STOCK_MODES = ("stock", "slownode", "speculation")
MODES = ("stock", "slownode", "speculation", "pocache", "pocache-spec")
LAYOUTS = ("rep1", "rep3", "rs-6-3", "rs-3-2")


def pick(k):
    k = int(k)
    held = {}
    block = re.compile(r"(blk_-?\d+)(?:_\d+)?:DatanodeInfoWithStorage\[10\.77\.(\d+)\.2:")
    length = re.compile(r"^\d+\. \S+ len=(\d+)")
    for line in sys.stdin:
        m = length.match(line)
        if not m:
            continue
        n = int(m.group(1))
        found = block.findall(line)
        if k > 0:
            # A striped group's internal block id is the group's id plus its index (low 4 bits);
            # each data unit holds about n / k of the group's bytes.
            for blk, dn in found:
                if (int(blk[4:]) & 0xF) < k:
                    held[int(dn)] = held.get(int(dn), 0) + n / k
        else:
            for _, dn in found:
                held[int(dn)] = held.get(int(dn), 0) + n
    if held:
        print(max(sorted(held), key=lambda d: held[d]))


KEPT_SETTINGS = ("hadoop", "rate", "factor", "cpu_factor", "input_mib", "block_mib", "dfsio_files", "repeats")


def check_keep(old_json, *meta):
    """Exit 1 (saying which) if old_json was made with other settings than meta's.

    meta may also name the layouts, modes, jobs and stragglers about to be measured (and the
    modes the SQL jobs run in): a straggler's factor then needs to be the same only where
    runs of the same layout, job and straggler are kept beside the runs measured now (each
    job's straggler may be as slow as it takes to cost that job; its modes are compared
    with each other at one speed)."""
    want = dict(kv.split("=", 1) for kv in meta)
    have = json.load(open(old_json))
    bad = []
    if all(k in want for k in ("layouts", "modes", "jobs", "stragglers", "sql_modes")):
        sql_modes = want["sql_modes"].split(",")
        now = {(lay, mode, job, st) for lay in want["layouts"].split(",") for mode in want["modes"].split(",")
               for job in want["jobs"].split(",") for st in want["stragglers"].split(",")
               if not (job.startswith("sql-") and mode not in sql_modes)}
        groups = {(lay, job, st) for lay, _, job, st in now}
        for r in have.get("runs", []):
            st = r["straggler"]
            if st == "none" or (r["layout"], r["mode"], r["job"], st) in now \
                    or (r["layout"], r["job"], st) not in groups:
                continue
            key = "factor" if st == "net" else "cpu_factor"
            if key in want and float(run_factor(r, have)) != float(want[key]):
                bad.append("%s %s %s straggler, mode %s: factor %g there, %s now (measure its modes again too)"
                           % (r["layout"], r["job"], st, r["mode"], run_factor(r, have), want[key]))
        want.pop("factor", None)
        want.pop("cpu_factor", None)

    def same(k, a, b):
        if k == "hadoop":
            return str(a).startswith(str(b))  # 3.4.1 there, the line 3.4 now
        try:
            return float(a) == float(b)
        except (TypeError, ValueError):
            return str(a) == str(b)
    bad += ["%s: %s there, %s now" % (k, have.get(k), want[k]) for k in KEPT_SETTINGS
            if k in want and not same(k, have.get(k), want[k])]
    for b in sorted(set(bad)):
        print("alternatives: --keep: " + b, file=sys.stderr)
    sys.exit(1 if bad else 0)


def run_factor(r, d):
    """The factor run r's straggler was slowed by (None without one); runs recorded before
    each run carried its own took the JSON's."""
    if r["straggler"] == "none":
        return None
    if r.get("straggler_factor") is not None:
        return r["straggler_factor"]
    return float(d.get("factor" if r["straggler"] == "net" else "cpu_factor", 10))


def mib_s(rate, factor):
    """A straggler's egress in MiB/s: an unshaped DataNode counts as 800 MiB/s (cluster.sh CL_UNSHAPED_MIBS)."""
    return (800.0 if rate in (None, "none") else float(rate)) / factor


def summarize(rows_file, storage_file, out, work, *meta):
    info = dict(kv.split("=", 1) for kv in meta)
    kept = info.pop("keep", None)
    runs = []
    for line in open(rows_file):
        f = line.split()
        if len(f) < 9:
            continue
        log = os.path.join(work, "%s-%s-%s-%s-%s.log" % (f[0], f[1], f[2], f[3], f[4]))
        reads = read_times(log + ".reads")
        hist = job_history(log + ".jhist")
        runs.append({"layout": f[0], "job": f[1], "straggler": f[2], "mode": f[3], "run": int(f[4]),
                     "ms": int(f[5]), "output": f[6], "dfsio_mb_s": None if f[7] == "-" else float(f[7]),
                     "straggler_datanode": int(f[8]),
                     "straggler_factor": None if len(f) < 10 or f[9] == "-" else float(f[9]),
                     "input_written": None if len(f) < 11 or f[10] == "-" else int(f[10]),
                     "read_ms_per_task": statistics.median(reads) if reads else None,
                     "map_cpu_ms": hist["map"]["cpu_ms"] if hist and "map" in hist else None,
                     "commit": info.get("commit", "unknown")})
    storage = {}
    for line in open(storage_file):
        f = line.split()
        if len(f) == 4 and int(f[1]) > 0:
            user, hdfs, parity = int(f[1]), int(f[2]), int(f[3])
            storage[f[0]] = {"user_bytes": user, "hdfs_bytes": hdfs, "parity_bytes": parity,
                             "stock_per_user": hdfs / user, "pocache_per_user": (hdfs + parity) / user}
    if kept:
        # The layout, mode, job and straggler measured now replace theirs; the others' runs stay
        # as they were, and so does the storage of layouts not measured now.
        old = json.load(open(kept))
        for r in old["runs"]:
            r["straggler_factor"] = run_factor(r, old)
        now = {(r["layout"], r["mode"], r["job"], r["straggler"]) for r in runs}
        runs = [r for r in old["runs"] if (r["layout"], r["mode"], r["job"], r["straggler"]) not in now] + runs
        for layout, st in old.get("storage", {}).items():
            if layout not in storage:
                storage[layout] = st
    info.pop("commit", None)
    cells = {}
    for r in runs:
        cells.setdefault((r["layout"], r["job"], r["straggler"], r["mode"]), []).append(r)
    summary = []
    for (layout, job, state, mode), rs in sorted(cells.items(), key=lambda kv: (
            LAYOUTS.index(kv[0][0]), kv[0][1], kv[0][2] != "none", kv[0][2], MODES.index(kv[0][3]))):
        e = {"layout": layout, "job": job, "straggler": state, "mode": mode, "ms": stats([r["ms"] for r in rs])}
        factors = sorted({r["straggler_factor"] for r in rs if r["straggler_factor"] is not None})
        if factors:
            # One factor per layout, job and straggler (check-keep sees to it).
            e["straggler_factor"] = factors[-1]
            e["straggler_mib_s"] = mib_s(info.get("rate"), factors[-1])
        xs = [r["read_ms_per_task"] for r in rs if r["read_ms_per_task"] is not None]
        if xs:
            e["read_ms_per_task"] = statistics.median(xs)
        xs = [r["dfsio_mb_s"] for r in rs if r["dfsio_mb_s"] is not None]
        if xs:
            e["dfsio_mb_s"] = statistics.median(xs)
        summary.append(e)

    def median(layout, job, state, mode):
        e = [x for x in summary if (x["layout"], x["job"], x["straggler"], x["mode"]) == (layout, job, state, mode)]
        return e[0]["ms"]["median"] if e else None

    def best_stock(layout, job, state):
        xs = [(median(layout, job, state, m), m) for m in STOCK_MODES]
        xs = [x for x in xs if x[0] is not None]
        return min(xs) if xs else (None, None)

    for e in summary:
        stock = median(e["layout"], e["job"], e["straggler"], "stock")
        if stock:
            e["vs_stock"] = e["ms"]["median"] / stock
        best, which = best_stock(e["layout"], e["job"], e["straggler"])
        if best:
            e["vs_best_stock"] = e["ms"]["median"] / best
            e["best_stock_mode"] = which
        if e["layout"] == "rep1":
            best3, which3 = best_stock("rep3", e["job"], e["straggler"])
            if best3:
                e["vs_best_stock_on_rep3"] = e["ms"]["median"] / best3
        calm = median(e["layout"], e["job"], "none", e["mode"])
        if calm and e["straggler"] != "none":
            e["vs_own_no_straggler"] = e["ms"]["median"] / calm
        if e["layout"] in storage:
            s = storage[e["layout"]]
            e["storage_per_user_byte"] = s["pocache_per_user" if e["mode"].startswith("pocache") else "stock_per_user"]

    goals = []
    jobs = sorted({r["job"] for r in runs})
    states = sorted({r["straggler"] for r in runs if r["straggler"] != "none"})

    def goal(what, value, limit, applies=True, why=None):
        # No value: a layout or mode the goal needs has no runs in this JSON.
        g = {"goal": what, "value": value, "limit": limit,
             "met": None if value is None or not applies else value <= limit}
        if value is None:
            g["not_measured"] = True
        elif not applies:
            g["not_applicable"] = why
        goals.append(g)

    for job in jobs:
        for state in states:
            for layout, limit in (("rs-6-3", 0.6), ("rep1", 0.8)):
                best, which = best_stock(layout, job, state)
                p = median(layout, job, state, "pocache")
                slow, calm = median(layout, job, state, "stock"), median(layout, job, "none", "stock")
                stock_slow = slow / calm if slow and calm else None
                speed = [x.get("straggler_mib_s") for x in summary
                         if (x["layout"], x["job"], x["straggler"], x["mode"]) == (layout, job, state, "stock")]
                at = " at %.3g MiB/s" % speed[0] if speed and speed[0] else ""
                goal("%s, %s straggler%s, %s: POCache / best stock mode (%s)" % (job, state, at, layout, which),
                     p / best if p and best and stock_slow else None, limit, (stock_slow or 0) >= 1.5,
                     "the straggler cost stock %.2fx here, less than 1.5x" % (stock_slow or 0))
            best, which = best_stock("rep3", job, state)
            p = median("rep1", job, state, "pocache")
            goal("%s, %s straggler: POCache on rep1 / best stock mode on rep3 (%s)" % (job, state, which),
                 p / best if p and best else None, 1.1)
        for layout in LAYOUTS:
            best, which = best_stock(layout, job, "none")
            p = median(layout, job, "none", "pocache")
            if p and best:
                goal("%s, no straggler, %s: POCache / best stock mode (%s)" % (job, layout, which), p / best, 1.02)
        for layout in LAYOUTS:
            for state in ["none"] + states:
                a, b = median(layout, job, state, "pocache-spec"), median(layout, job, state, "speculation")
                if a and b:
                    goal("%s, %s, %s straggler: POCache + speculation / speculation" % (job, layout, state), a / b, 1.0)

    outputs = {}
    for r in runs:
        if r["output"] != "-":
            # Runs on the same input (sort's is random: written again, it sorts to another output).
            outputs.setdefault((r["job"], r["layout"] if r["job"] in ("sort", "terasort") else "",
                                r.get("input_written") if r["job"] == "sort" else None), set()).add(r["output"])
    def usual(kind, given):
        # The factor most runs with this straggler had (each summary cell has its own).
        xs = [r["straggler_factor"] for r in runs if r["straggler"] == kind and r["straggler_factor"] is not None]
        return max(sorted(set(xs)), key=xs.count) if xs else float(given)
    factor = usual("net", info.get("factor", 10))
    result = {"command": "scripts/pocache experiment alternatives", "hadoop": info.get("hadoop"),
              "rate": info.get("rate"), "factor": factor,
              "cpu_factor": usual("cpu", info.get("cpu_factor", 10)), "input_mib": int(info.get("input_mib", 0)),
              "block_mib": int(info.get("block_mib", 0)), "dfsio_files": int(info.get("dfsio_files", 0)),
              "repeats": int(info.get("repeats", 0)), "datanodes": int(info.get("datanodes", 0)),
              "straggler_mib_s": mib_s(info.get("rate"), factor),
              "outputs_identical": all(len(v) == 1 and not next(iter(v)).startswith("short-files")
                                       for v in outputs.values()),
              "storage": storage, "summary": summary, "goals": goals, "runs": runs}
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
    for line in table(result):
        print(line)
    met = [g for g in goals if g["met"] is not None]
    print("alternatives: outputs identical: %s; goals met: %d of %d (%d not applicable, %d not measured); JSON in %s" % (
        result["outputs_identical"], sum(1 for g in met if g["met"]), len(met),
        sum(1 for g in goals if "not_applicable" in g), sum(1 for g in goals if "not_measured" in g), out))


def table(d):
    """One row per layout, job and straggler; per mode the median job time and its ratio to stock."""
    modes = [m for m in MODES if any(e["mode"] == m for e in d["summary"])]
    head = "| layout | job | straggler | " + " | ".join(modes) + " |"
    lines = [head, "|" + "---|" * (3 + len(modes))]
    keys = []
    for e in d["summary"]:
        k = (e["layout"], e["job"], e["straggler"])
        if k not in keys:
            keys.append(k)
    for k in keys:
        cells = list(k)
        for m in modes:
            e = [x for x in d["summary"] if (x["layout"], x["job"], x["straggler"], x["mode"]) == k + (m,)]
            if not e:
                cells.append("-")
            elif m == "stock" or "vs_stock" not in e[0]:
                cells.append("%.1f s" % (e[0]["ms"]["median"] / 1000))
            else:
                cells.append("%.1f s (%.2f)" % (e[0]["ms"]["median"] / 1000, e[0]["vs_stock"]))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


if __name__ == "__main__":
    {"pick": pick, "summarize": summarize, "check-keep": check_keep}[sys.argv[1]](*sys.argv[2:])
