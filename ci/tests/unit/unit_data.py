# SPDX-License-Identifier: GPL-2.0
"""Where the unit tier finds its recorded data and the code it tests."""
import importlib
import os
import sys

UNIT = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(UNIT)))
DATA = os.path.join(TOP, "ci", "tests", "data")
REPORT = os.path.join(TOP, "ci", "report")

for _path in (REPORT, os.path.join(TOP, "ci")):
    if _path not in sys.path:
        sys.path.insert(0, _path)


def report_module(name):
    """A module of ci/report/ (they import each other by plain name)."""
    return importlib.import_module(name)


def update_wanted():
    """True when the unit tier runs with --update (ci/tests/unit/run.sh):
    the recorded runs' expected/ files are written anew."""
    return "--update" in sys.argv
