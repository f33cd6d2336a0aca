#!/usr/bin/env python3
"""Writes the key tables of docs/configuration.md from pocache-default.xml.

Usage: scripts/lib/configdoc.py [--check]

The tables sit between the markers <!-- keys:begin --> and <!-- keys:end --> and are
grouped by component (GROUPS below, first matching prefix wins). --check exits 1 when
the page differs from what it would write. TestConfigDocs checks the same agreement
from Java on every build.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XML = os.path.join(ROOT, "manager", "src", "main", "resources", "pocache-default.xml")
PAGE = os.path.join(ROOT, "docs", "configuration.md")
BEGIN, END = "<!-- keys:begin -->", "<!-- keys:end -->"

GROUPS = [
    ("Switch, code and coder", ["dfs.pocache.enabled", "dfs.pocache.coder", "dfs.pocache.code.",
                                "dfs.pocache.subblock."]),
    ("Redis", ["dfs.pocache.redis."]),
    ("Manager", ["dfs.pocache.manager.", "dfs.pocache.cache.", "dfs.pocache.write.", "dfs.pocache.exclude."]),
    ("Parity protection", ["dfs.pocache.parity."]),
    ("Straggler list", ["dfs.pocache.straggler.", "dfs.pocache.datanode."]),
    ("CSAC", ["dfs.pocache.csac."]),
    ("Fill worker", ["dfs.pocache.fill."]),
    ("Client reads", ["dfs.pocache.read."]),
]


def properties():
    out = []
    for p in ET.parse(XML).getroot().iter("property"):
        name = p.findtext("name").strip()
        value = (p.findtext("value") or "").strip()
        desc = " ".join((p.findtext("description") or "").split())
        out.append((name, value, desc))
    return out


def tables():
    groups = {title: [] for title, _ in GROUPS}
    for name, value, desc in properties():
        for title, prefixes in GROUPS:
            if any(name == p or (p.endswith(".") and name.startswith(p)) for p in prefixes):
                groups[title].append((name, value, desc))
                break
        else:
            sys.exit("configdoc.py: %s matches no group; add its prefix to GROUPS" % name)
    lines = []
    for title, _ in GROUPS:
        if not groups[title]:
            continue
        lines += ["", "### " + title, "", "| key | default | meaning |", "|---|---|---|"]
        lines += ["| `%s` | `%s` | %s |" % row for row in groups[title]]
    return "\n".join(lines + [""])


def main():
    page = open(PAGE, encoding="utf-8").read()
    if BEGIN not in page or END not in page:
        sys.exit("configdoc.py: %s lacks the %s / %s markers" % (PAGE, BEGIN, END))
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + tables() + END + tail
    if "--check" in sys.argv[1:]:
        if new != page:
            sys.exit("docs/configuration.md is not what scripts/lib/configdoc.py writes from pocache-default.xml")
        return
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(new)


if __name__ == "__main__":
    main()
