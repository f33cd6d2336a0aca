"""The top frames of a CPU profile: async-profiler's collapsed stacks, or a JFR recording.

  jfrtop.py PROFILE [N]

PROFILE is async-profiler's collapsed output (one "frame;frame;... count" line per
stack; native frames included, JIT compiler threads too) or a JFR recording (.jfr:
jdk.ExecutionSample, Java frames only, through the JDK's `jfr` tool). Prints, by share
of samples: the N (default 15) hottest frames (the sampled frame itself), and the N
hottest first frames in POCache's own client code (org.pocache, not the benchmark), i.e.
what POCache's code was doing or calling when sampled, with the sampled frame.
"""
import collections
import re
import subprocess
import sys


def collapsed(path):
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if stack:
                frames = [x.replace("/", ".") for x in stack.split(";")][::-1]  # leaf first
                for _ in range(int(count)):
                    yield frames


def samples(path):
    if not path.endswith(".jfr"):
        yield from collapsed(path)
        return
    text = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", path],
                          check=True, capture_output=True, text=True).stdout
    for block in text.split("jdk.ExecutionSample {")[1:]:
        m = re.search(r"stackTrace = \[(.*?)\n\s*\]", block, re.S)
        if not m:
            continue
        frames = [re.sub(r"\s+line:.*$", "", f.strip()) for f in m.group(1).strip().split("\n") if f.strip()]
        frames = [f for f in frames if f != "..."]
        if frames:
            yield frames


def main(path, n="15"):
    n = int(n)
    top = collections.Counter()
    ours = collections.Counter()
    total = 0
    for frames in samples(path):
        total += 1
        top[frames[0]] += 1
        own = next((f for f in frames if f.startswith("org.pocache.") and ".experiments." not in f), None)
        ours[(own or "(no POCache frame)") + ("  ->  " + frames[0] if own and own != frames[0] else "")] += 1
    print("%d CPU samples in %s" % (total, path))
    print("hottest methods:")
    for f, c in top.most_common(n):
        print("  %5.1f%%  %s" % (100.0 * c / max(total, 1), f))
    print("first POCache frame on the stack  ->  the sampled frame:")
    for f, c in ours.most_common(n):
        print("  %5.1f%%  %s" % (100.0 * c / max(total, 1), f))


if __name__ == "__main__":
    main(*sys.argv[1:])
