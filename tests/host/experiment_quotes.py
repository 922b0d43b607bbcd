#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""experiment/results.md is what experiment/report.py writes from the
committed experiment/data/ alone (redone here byte for byte), and every
line of README.md's experiment quotes (between the markers
<!-- experiment-quotes --> and <!-- /experiment-quotes -->) is a line of
it, verbatim.  A doctored quote and a doctored result must be caught.
TAP output.
"""
import os
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(TOP, "tests", "lib"))
from tap import check, finish  # noqa: E402

BEGIN, END = "<!-- experiment-quotes -->", "<!-- /experiment-quotes -->"


def quotes(readme):
    """the quoted lines of README's text, None without both markers"""
    if BEGIN not in readme or END not in readme:
        return None
    block = readme.split(BEGIN, 1)[1].split(END, 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def unquoted(readme, results):
    """README's quoted lines that results.md does not hold verbatim"""
    have = set(results.splitlines())
    return [q for q in quotes(readme) or [] if q not in have]


def read(path):
    with open(path) as f:
        return f.read()


results = read(os.path.join(TOP, "experiment", "results.md"))
readme = read(os.path.join(TOP, "README.md"))
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "results.md")
    r = subprocess.run([sys.executable, os.path.join(TOP, "experiment", "report.py"),
                        os.path.join(TOP, "experiment", "data"), out,
                        os.path.join(tmp, "maps.html"),
                        os.path.join(TOP, "tools", "fragview", "fragview")],
                       capture_output=True, text=True)
    again = read(out) if os.path.exists(out) else ""
check(r.returncode == 0 and again == results,
      "results.md is report.py's output from the committed data, byte for byte",
      r.stderr[-2000:] + "".join(
          f"\n- {a}\n+ {b}" for a, b in zip(results.splitlines(), again.splitlines())
          if a != b)[:2000])
q = quotes(readme)
check(q is not None and len(q) >= 3,
      f"README.md quotes the experiment between its markers ({len(q or [])} lines)")
bad = unquoted(readme, results)
check(q is not None and not bad, "every quoted line is a line of results.md", "\n".join(bad))

# negative: one figure changed in a quote, or in the results
if q:
    line = next((x for x in q if any(c.isdigit() for c in x)), q[0])
    digit = next((c for c in line if c.isdigit()), None)
    doctored = line.replace(digit, str((int(digit) + 1) % 10), 1) if digit else line + " x"
    check(unquoted(readme.replace(line, doctored, 1), results) == [doctored],
          "a quote with one figure changed is caught")
    check(unquoted(readme, results.replace(line, doctored, 1)) != [],
          "a result changed under a quote is caught")
check(quotes("no markers here") is None and unquoted("no markers", results) == [],
      "a README without the markers has no quotes (and the count check above fails it)")
sys.exit(finish())
