"""The top frames of a JFR recording's CPU samples (jdk.ExecutionSample).

  jfrtop.py RECORDING.jfr [N]

Prints, by share of samples: the N (default 15) hottest methods (the sampled frame
itself), and the N hottest first frames in POCache's own code (org.pocache), i.e. what
POCache's code was doing or calling when sampled. Uses the JDK's `jfr` tool.
"""
import collections
import re
import subprocess
import sys


def samples(path):
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
        own = next((f for f in frames if f.startswith("org.pocache.")), None)
        ours[own or "(no POCache frame)"] += 1
    print("%d CPU samples in %s" % (total, path))
    print("hottest methods:")
    for f, c in top.most_common(n):
        print("  %5.1f%%  %s" % (100.0 * c / max(total, 1), f))
    print("first POCache frame on the stack:")
    for f, c in ours.most_common(n):
        print("  %5.1f%%  %s" % (100.0 * c / max(total, 1), f))


if __name__ == "__main__":
    main(*sys.argv[1:])
