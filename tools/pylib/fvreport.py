# SPDX-License-Identifier: GPL-2.0
"""What bench/report.py and experiment/report.py both do with a run's
files: read data.tsv, describe the machine, date the run, list notes and
commands, and put the Markdown in place.

The scripts import it with sys.path set from their own location, so they
run from any directory without installing anything.
"""
import collections
import datetime
import os
import statistics
import sys


def read_rows(path):
    """data.tsv as lists of fields, blank lines skipped"""
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def med(xs):
    """median; NaN for no values, so a missing series shows as nan"""
    return statistics.median(xs) if xs else float("nan")


def cpu_model():
    """the host CPU's model name from /proc/cpuinfo, '?' if it has none"""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "?"


def cpus():
    """'N CPUs (model)': the start of both reports' machine line"""
    return f"{os.cpu_count()} CPUs ({cpu_model()})"


def utc_stamp():
    """now, as the reports date a run: 'YYYY-MM-DD HH:MM' in UTC"""
    return f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M}"


def bullets(lines):
    """the run's notes as bold list items, blank lines dropped"""
    return [f"- **{n}**" for n in lines if n.strip()]


def commands(path):
    """the run's commands in first-seen order, a repeated one once with
    its count, so that a loop of runs reads as one line"""
    seen = collections.OrderedDict()
    with open(path) as f:
        for c in f.read().splitlines():
            seen[c] = seen.get(c, 0) + 1
    return [c + (f"    # x{n}" if n > 1 else "") for c, n in seen.items()]


def write_atomic(path, text):
    """replace path by text at once: a failed run leaves the old file"""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def publish(path, text):
    """the report into path and onto stdout, where run.sh shows it"""
    write_atomic(path, text)
    sys.stdout.write(text)
