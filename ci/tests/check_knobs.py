#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/tests/check_knobs.py [TOP]

Every MNCOMPAT_* or BOOT_* variable the kit reads from the environment is
in the README's "Knobs" section (as `NAME`). A read is a shell expansion
with a default or a test for unset (${NAME:-...}, ${NAME-...},
${NAME:?...}, ${NAME:+...}) or a Python os.environ / os.getenv lookup, in
any file git tracks but C, patches and Markdown. Prints one line per
variable missing from the README and exits 1; exits 0 when none is.
"""
import os
import re
import subprocess
import sys

SHELL_READ = re.compile(r'\$\{((?:MNCOMPAT|BOOT)_[A-Z0-9_]+)(?::?[-?+])')
PY_READ = re.compile(r'''(?:environ\.get\(|environ\[|getenv\()\s*'''
                     r'''['"]((?:MNCOMPAT|BOOT)_[A-Z0-9_]+)''')
SKIP = ('.c', '.h', '.patch', '.md')


def reads(top):
    """{name: first 'file:line' that reads it}"""
    files = subprocess.run(['git', '-C', top, 'ls-files'], check=True,
                           capture_output=True, text=True).stdout.split()
    found = {}
    for rel in files:
        if rel.endswith(SKIP):
            continue
        try:
            with open(os.path.join(top, rel), encoding='utf-8') as f:
                lines = f.readlines()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for n, line in enumerate(lines, 1):
            for rx in (SHELL_READ, PY_READ):
                for name in rx.findall(line):
                    found.setdefault(name, f'{rel}:{n}')
    return found


def knobs_section(top):
    """The text of README.md's "### Knobs" section."""
    with open(os.path.join(top, 'README.md'), encoding='utf-8') as f:
        text = f.read()
    m = re.search(r'^### Knobs\n(.*?)(?=^#{1,3} )', text, re.M | re.S)
    if not m:
        sys.exit('README.md has no "### Knobs" section')
    return m.group(1)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    section = knobs_section(top)
    missing = sorted((name, where) for name, where in reads(top).items()
                     if f'`{name}`' not in section)
    for name, where in missing:
        print(f'{name}: read at {where}, not in the README "Knobs" section')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
