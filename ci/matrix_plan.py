# SPDX-License-Identifier: GPL-2.0
"""The matrix as one plan (standard library only): the kernels of
ci/kernels/kernels.list and their env files, the suite files, and the plan of a
run made from them. This is the one place that parses a suite file, a
kernel's env file, ci/kernels/lacks.list (read_lacks), a kernel-patches
series file (PatchSeries), a kernel version (kernel_version) and
compat's mncompat_config.h; the shell scripts of
ci/ ask it (the commands at the end) and do the leaf actions (prepare a
kernel, build a module, boot a guest).

A kernel's env file (ci/lib.sh write_kernel_env, ci/kernels/prepare-kernel.sh) is
KEY=VALUE lines, a value with blanks in single quotes. Only this module
reads it: a shell script asks for the fields it needs (the "kernel"
command, ci/lib.sh kernel_fields) and passes them on to the leaf scripts
as arguments; the env file's path is the kernel's one handle. What this
module tells a shell script (the "kernel" and "row" commands, a suite's
boot.conf) is data, a value a line, read with "read"; no shell evaluates
it.

A suite file has one directive per line; ci/run/stage-suite.sh's header says
what each does. Parsing checks them all: an unknown directive, a
converted-module without its mode or a "kernels" line is an error of the
suite (a failing "harness" row for each of its runs, the others still
run). The words of a step line are read as a POSIX shell reads them
(a path with blanks or quotes in single quotes, as ci/run/driver-matrix.sh
writes it); a word with a control character is refused, and so is a name
the guest and the reports cannot carry: a module's (its directory's name)
and a kernel module's are [A-Za-z0-9_-], a guest test's (its file name
without the extension) A-Z a-z 0-9 _ . + - not starting with . or -. The
steps go to ci/run/stage-suite.sh TAB-separated, data for it and for the
guest's plan (ci/run/guest/init), never shell text.
"""
import hashlib
import os
import re
import shlex
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The behaviour reader, ci/kernels/behaviours.py: what a kernel does with
# a driver's callbacks, read from its source (finish-env below).
sys.path.insert(0, os.path.join(TOP, "ci", "kernels"))
import behaviours  # noqa: E402
# Run as a program, this module is still the one "import matrix_plan"
# finds (ci/boot_group.py and ci/report/results.py import it).
sys.modules.setdefault("matrix_plan", sys.modules[__name__])
DEFAULT_TIMEOUT = 300
MODES = ("--compat", "--native", "--atomic")
DIRECTIVES = ("module", "converted-module", "kmod", "test", "exec",
              "wrapper", "timeout", "needs", "qemu", "append", "alone")
KINDS = ("deb", "src", "user")
LACKS_LIST = os.path.join(TOP, "ci", "kernels", "lacks.list")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
MODULE_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
TEST_NAME = re.compile(r"^[A-Za-z0-9_+][A-Za-z0-9_.+-]*$")


class ModelError(Exception):
    """A suite, row or env file the matrix plan refuses; str() says why."""


def read_env(path):
    """The KEY=VALUE lines of an env file as a dict ('' when it is not
    there)."""
    env = {}
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return env
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and re.match(r"^[A-Z_][A-Z0-9_]*$", key):
            env[key] = value.strip("'")
    return env


def env_line(key, value):
    """KEY=VALUE as the env file holds it (single quotes around a value
    with blanks or quotes; none may hold a single quote)."""
    if "'" in value:
        raise ModelError(f"{key}: a value with a single quote: {value}")
    if "\n" in value:
        raise ModelError(f"{key}: a value with a newline: {value!r}")
    if re.search(r"[\s\"$`\\]", value) or key in QUOTED:
        return f"{key}='{value}'\n"
    return f"{key}={value}\n"


# The env file's fields that are always quoted (they may hold blanks).
QUOTED = ("KERNEL_VERSION", "KERNEL_APPEND", "KERNEL_LACKS",
          "KERNEL_BEHAVIOURS", "KERNEL_BEHAVIOUR_SOURCE")


def config_macros(header):
    """Names X of '#define MNCOMPAT_HAVE_X 1' in compat's
    mncompat_config.h (compat/configure.sh), in order; [] when there is
    no header."""
    try:
        with open(header) as f:
            text = f.read()
    except OSError:
        return []
    macros = []
    for line in text.splitlines():
        m = re.match(r"^#define MNCOMPAT_HAVE_([A-Z0-9_]+) 1$", line)
        if m:
            macros.append(m.group(1))
    return macros


def config_without(text, feature):
    """TEXT, a mncompat_config.h, with MNCOMPAT_HAVE_FEATURE turned off:
    its '#define MNCOMPAT_HAVE_FEATURE 1' line becomes '#undef
    MNCOMPAT_HAVE_FEATURE', every other line as it was (compat's tests
    build against such a copy: the fallback where the kernel has the
    feature)."""
    if not re.match(r"^[A-Z0-9_]+$", feature):
        raise ModelError(f"config-without: not a feature name: {feature}")
    define = f"#define MNCOMPAT_HAVE_{feature} 1"
    lines = text.splitlines(keepends=True)
    if not any(line.rstrip("\n") == define for line in lines):
        raise ModelError(f"config-without: {feature} is not defined "
                         "(nothing to turn off)")
    return "".join(f"#undef MNCOMPAT_HAVE_{feature}\n"
                   if line.rstrip("\n") == define else line
                   for line in lines)


def list_words(path):
    """The first words of a list file's lines (comments and blank lines
    left out), in order."""
    words = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                words.append(fields)
    return words


def read_lacks(path=LACKS_LIST):
    """ci/kernels/lacks.list, the features a user row may say it lacks
    (lacks=FEATURE,...) and the tests that then are expected to skip:
    {FEATURE: [TEST_GLOB, ...]} in file order. The one reader of that
    file. Its format: a line "FEATURE TEST_GLOB" (two words, the glob as
    in ci/report/expectations; a feature may have several lines), lines
    starting with "#" and blank lines ignored; any other line is a
    ModelError naming it."""
    features = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if len(words) != 2:
                raise ModelError(f"{path}:{n}: want 'FEATURE TEST_GLOB', "
                                 f"not '{line.strip()}'")
            features.setdefault(words[0], []).append(words[1])
    return features


KERNEL_PATCHES = os.path.join(TOP, "kernel-patches")


class PatchSeries:
    """kernel-patches/NAME/series, read and checked once: the one reader
    of that format (ci/kernels/build-src-kernel.sh and
    kernel-patches/check-series.sh ask it through the "patches" command).
    The format is quilt's series file, restricted: a patch file's name a
    line, in the order they apply (patch -p1, each on the tree the ones
    before it made; the files sit in NAME/, a shared one as a symlink),
    blank lines and lines starting with "#" left out, and one comment line
    "# generation: X.Y" naming the kernel generation the series
    re-creates (the reports order kernels by it: KernelRow.generation).
    A line of more than one word (quilt's -pN options), a name with a
    "/", a patch that is not there, no patch or no generation line is a
    ModelError."""

    def __init__(self, name, top=KERNEL_PATCHES):
        self.name = name
        self.dir = os.path.join(top, name)
        path = os.path.join(self.dir, "series")
        self.generation = None
        self.patches = []       # paths, in order
        try:
            with open(path) as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise ModelError(f"no patch series kernel-patches/{name}/series "
                             f"({e.strerror})")
        for n, line in enumerate(lines, 1):
            where = f"kernel-patches/{name}/series:{n}"
            m = re.match(r"^#\s*generation:\s*([0-9]+\.[0-9]+)\b", line)
            if m:
                self.generation = m.group(1)
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if len(words) != 1 or "/" in words[0]:
                raise ModelError(f"{where}: want one patch file name, not "
                                 f"'{line.strip()}'")
            patch = os.path.join(self.dir, words[0])
            if not os.path.isfile(patch):
                raise ModelError(f"{where}: names {words[0]}, which is "
                                 "missing")
            self.patches.append(patch)
        if not self.patches:
            raise ModelError(f"kernel-patches/{name}/series names no patch")
        if self.generation is None:
            raise ModelError(f"kernel-patches/{name}/series has no "
                             "'# generation: X.Y' line")


def series_names(top=KERNEL_PATCHES):
    """The series of kernel-patches/: its folders with a series file."""
    return sorted(s for s in os.listdir(top)
                  if os.path.exists(os.path.join(top, s, "series")))


class KernelRow:
    """One row of ci/kernels/kernels.list: name, kind, series (or build tree),
    and the kind's other fields."""

    def __init__(self, fields, path="kernels.list"):
        self.fields = fields
        self.name = fields[0]
        self.kind = fields[1] if len(fields) > 1 else ""
        self.path = path

    def arg(self, i):
        """Field I (0-based), '-' when the row has none."""
        return self.fields[i] if len(self.fields) > i else "-"

    def append(self):
        """The row's boot arguments, blank-separated."""
        a = self.arg(5)
        return "" if a == "-" else a.replace(",", " ")

    def patches(self):
        """The kernel-patches series of a source row, else '-'."""
        return self.arg(4) if self.kind == "src" else "-"

    # A user row's fields after its boot arguments: KEY=VALUE options.
    OPTIONS = ("lacks", "behaves", "source")

    def options(self):
        """{KEY: VALUE} of a user row's options (the fields after its boot
        arguments, any order): lacks=FEATURE,... (features of
        ci/kernels/lacks.list it lacks), behaves=NAME=VALUE,... (behaviours
        it declares, ci/kernels/behaviours.md), source=DIR (a source tree
        to read its behaviours from). A lone "-" is no option."""
        if self.kind != "user":
            return {}
        opts = {}
        for field in self.fields[6:]:
            if field == "-":
                continue
            key, sep, value = field.partition("=")
            if not sep or key not in self.OPTIONS:
                raise ModelError(
                    f"{self.name}: want lacks=FEATURE,..., behaves=NAME="
                    f"VALUE,... or source=DIR after the boot arguments, not "
                    f"'{field}'")
            if key in opts:
                raise ModelError(f"{self.name}: {key}= given twice")
            opts[key] = value
        return opts

    def declared_behaviours(self):
        """{NAME: VALUE} of the row's behaves= option, each checked against
        ci/kernels/behaviours.py."""
        out = {}
        for word in self.options().get("behaves", "").split(","):
            if not word:
                continue
            name, _sep, value = word.partition("=")
            if name not in behaviours.BEHAVIOURS:
                raise ModelError(
                    f"{self.name}: behaves={word}: no behaviour {name} "
                    f"({' '.join(behaviours.BEHAVIOURS)})")
            values = behaviours.BEHAVIOURS[name][0]
            if value not in values:
                raise ModelError(f"{self.name}: behaves={word}: {name} is "
                                 f"one of {', '.join(values)}")
            out[name] = value
        return out

    def lacks(self, lacks_list):
        """The ci/kernels/lacks.list features a user row says it lacks."""
        field = self.options().get("lacks", "-")
        features = [f for f in field.split(",") if f and f != "-"]
        known = sorted(read_lacks(lacks_list))
        for f in features:
            if f not in known:
                raise ModelError(f"{self.name}: lacks={f}: not a feature of "
                                 f"ci/kernels/lacks.list ({' '.join(known)} )")
        return features

    def generation(self, release):
        """The generation the kernel stands for (the reports order kernels
        by it): a re-created kernel's is its series', any other's its
        release's X.Y."""
        patches = self.patches()
        if patches != "-":
            return PatchSeries(patches).generation
        v = kernel_version(release)
        return f"{v[0]}.{v[1]}" if v else ""


def kernel_rows(path):
    """The rows of a kernels.list, in order."""
    return [KernelRow(f, path) for f in list_words(path)]


def kernel_row(path, name):
    for row in kernel_rows(path):
        if row.name == name:
            return row
    raise ModelError(f"kernel '{name}' is not in {path}")


def known_words():
    """The needs words a kernel can have besides CONFIG_ options and
    release>=X.Y: the compat probes, recreated[=SERIES], kmemleak and the
    kinds."""
    words = set()
    for p in os.listdir(os.path.join(TOP, "compat", "probes")):
        if p.endswith(".c"):
            words.add(p[:-2])
    words.update(f"recreated={s}" for s in series_names())
    words.update(["recreated", "kmemleak"] + [f"kind={k}" for k in KINDS])
    words.update(behaviours.words())
    return words


class Kernel:
    """A prepared kernel: its env file (the handle ci/kernels/prepare-kernel.sh
    prints) and what a suite's needs lines test of it."""

    def __init__(self, env_file):
        self.env_file = env_file
        self.env = read_env(env_file)
        if "KERNEL_NAME" not in self.env:
            raise ModelError(f"{env_file}: not a kernel env file "
                             "(no KERNEL_NAME; ci/kernels/prepare-kernel.sh)")
        self.name = self.env["KERNEL_NAME"]

    def properties(self, config_dir):
        """The kernel's properties, one word each (ci/run/stage-suite.sh
        writes them beside its results for the needs lines): kind=KIND,
        recreated and recreated=SERIES, release=RELEASE, each compat probe
        that compiled (lower case), each CONFIG_ option set to y or m,
        kmemleak when it is built in and on at boot."""
        env = self.env
        props = [f"kind={env.get('KERNEL_KIND', '')}"]
        patches = env.get("KERNEL_PATCHES", "-") or "-"
        if patches != "-":
            props += ["recreated", f"recreated={patches}"]
        props.append(f"release={env.get('KERNEL_RELEASE', '')}")
        # Its behaviours (finish-env), NAME=unknown for any not known.
        known = dict(w.split("=", 1)
                     for w in env.get("KERNEL_BEHAVIOURS", "").split())
        props += [f"{n}={known.get(n, behaviours.UNKNOWN)}"
                  for n in behaviours.BEHAVIOURS]
        props += [m.lower() for m in config_macros(
            os.path.join(config_dir, "mncompat_config.h"))]
        config = {}
        with open(os.path.join(env.get("KDIR", ""), "include", "config",
                               "auto.conf")) as f:
            for line in f:
                m = re.match(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$",
                             line.rstrip("\n"))
                if m:
                    config[m.group(1)] = m.group(2)
                    if m.group(2) in ("y", "m"):
                        props.append(m.group(1))
        if config.get("CONFIG_DEBUG_KMEMLEAK") == "y":
            on = config.get("CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF") != "y"
            for arg in env.get("KERNEL_APPEND", "").split():
                if arg == "kmemleak=off":
                    on = False
                elif arg == "kmemleak=on":
                    on = True
            if on:
                props.append("kmemleak")
        return props


VERSION = re.compile(r"^([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?")


def kernel_version(text):
    """The kernel version TEXT starts with, as a tuple that compares as
    kernel versions do, or None when TEXT does not start with a number.
    The one reader of a kernel version in ci/: a needs line's
    release>=X.Y, a kernel's KERNEL_RELEASE (uname -r) and
    KERNEL_GENERATION (the reports' kernel order), a skip's "no API
    (X.Y+)". The form: X[.Y[.Z]] at the start of TEXT, a missing part 0,
    whatever follows ignored: '6.12.118+deb12-amd64' -> (6, 12, 118),
    '4.12' -> (4, 12, 0), '6.1.0-57-amd64' -> (6, 1, 0)."""
    m = VERSION.match(text)
    return tuple(int(p or 0) for p in m.groups()) if m else None


class Suite:
    """A suite file, parsed and checked once."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        if self.name.endswith(".suite"):
            self.name = self.name[:-len(".suite")]
        self.steps = []         # (directive, [args]) in file order
        self.needs = []         # (line number, line, [words])
        self.timeout = DEFAULT_TIMEOUT
        self.alone = False
        self.qemu = ""          # " ARGS" per qemu line, as boot.sh adds them
        self.append = ""
        self.boot_lines = []    # the qemu and append lines, as written
        with open(path) as f:
            lines = f.read().splitlines()
        for n, line in enumerate(lines, 1):
            self._parse(n, line)

    def _error(self, why):
        raise ModelError(f"{self.path}: {why}")

    def _parse(self, n, line):
        words = line.split()
        if not words or words[0].startswith("#"):
            return
        directive, args = words[0], words[1:]
        rest = line.strip()[len(directive):].strip()
        if directive not in ("qemu", "append"):
            try:
                args = shlex.split(rest)
            except ValueError as e:
                self._error(f"line {n}: {e}")
            for a in args:
                if CONTROL.search(a):
                    self._error(f"line {n}: a control character in "
                                f"{a.encode('unicode_escape').decode()!r}: "
                                "a step cannot carry it")
        if directive == "kernels":
            self._error("a suite says what it needs of a kernel ('needs' "
                        "lines), not which kernels")
        if directive not in DIRECTIVES:
            self._error(f"unknown directive '{directive}'")
        if directive == "converted-module":
            if len(args) < 2 or args[1] not in MODES:
                name = os.path.basename(args[0]) if args else "?"
                self._error(f"converted-module {name}: give --compat, "
                            "--native or --atomic after the directory")
        if directive in ("module", "converted-module", "kmod", "test",
                         "exec", "wrapper") and not args:
            self._error(f"line {n}: {directive} needs an argument")
        self._check_name(n, directive, args)
        if directive == "timeout":
            if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
                self._error(f"line {n}: timeout wants seconds")
            self.timeout = int(args[0])
        elif directive == "alone":
            self.alone = True
        elif directive == "needs":
            self.needs.append((n, line, args))
        elif directive in ("qemu", "append"):
            self.boot_lines.append(line)
            setattr(self, directive, getattr(self, directive) + " " + rest)
        else:
            self.steps.append((directive, args))

    def _check_name(self, n, directive, args):
        """Refuse a name the guest's plan and the reports cannot carry."""
        if directive in ("module", "converted-module", "kmod"):
            name = os.path.basename(args[0].rstrip("/"))
            if not MODULE_NAME.match(name):
                self._error(f"line {n}: {directive} {args[0]}: a module's "
                            f"name '{name}' may have A-Z a-z 0-9 _ - only")
        elif directive in ("test", "exec", "wrapper"):
            name = os.path.basename(args[0])
            if directive == "test" and name.endswith(".c"):
                name = name[:-2]
            elif directive == "exec" and "." in name:
                name = name[:name.rindex(".")]
            if not TEST_NAME.match(name):
                self._error(f"line {n}: {directive} {args[0]}: a guest test's "
                            f"name '{name}' (it names its rows and its file in "
                            "the guest) may have A-Z a-z 0-9 _ . + - only, not "
                            "starting with . or -")

    def boot_group(self):
        """Suites of a kernel in the same group share one boot: a suite
        that says "alone" or takes more than the default timeout is a
        group of its own; the others group by their qemu and append
        lines."""
        if self.alone or self.timeout > DEFAULT_TIMEOUT:
            return self.name
        lines = "\n".join(sorted(self.boot_lines)) + "\n"
        return "shared-" + hashlib.sha256(lines.encode()).hexdigest()[:12]

    def unmet_needs(self, props, known=None):
        """[] when a kernel of PROPS (its property words) meets one of the
        needs lines (or there is none), else the needs lines, none met.
        A word no kernel can have is a ModelError."""
        if known is None:
            known = known_words()
        have = set(props)
        release = kernel_version(next((p[len("release="):] for p in props
                                       if p.startswith("release=")), ""))

        def atom(a):
            neg = a.startswith("!")
            a = a[1:] if neg else a
            if a.startswith("release>="):
                r = release is not None and \
                    release >= kernel_version(a[len("release>="):])
            else:
                r = a in have
            return r != neg

        self.check_needs(known)
        unmet = []
        for _n, line, words in self.needs:
            if words and all(any(atom(a) for a in w.split("|"))
                             for w in words):
                return []
            unmet.append(line)
        return unmet

    def check_needs(self, known):
        """A ModelError for the first needs word no kernel can have, or a
        behaviour negated (a kernel whose behaviour is unknown has none of
        its values: name the values wanted)."""
        for n, _line, words in self.needs:
            for w in words:
                for a in w.split("|"):
                    if a.startswith("!") and \
                            a.split("=")[0][1:] in behaviours.BEHAVIOURS:
                        raise ModelError(
                            f"{self.path}:{n}: needs {a}: a behaviour is "
                            "named by the values wanted, never negated "
                            "(ci/kernels/behaviours.md)")
                    a = a[1:] if a.startswith("!") else a
                    if a.startswith("release>="):
                        ok = re.match(r"^[0-9]+(\.[0-9]+)*$",
                                      a[len("release>="):])
                    else:
                        ok = a in known or re.match(r"^CONFIG_[A-Z0-9_]+$", a)
                    if not ok:
                        raise ModelError(
                            f"{self.path}:{n}: needs {a}: no kernel has that "
                            "(a compat probe of compat/probes/, CONFIG_NAME, "
                            "recreated[=SERIES of kernel-patches/], kmemleak, "
                            "kind=deb|src|user, release>=X.Y, a behaviour "
                            "NAME=VALUE of ci/kernels/behaviours.md)")

    def boot_conf(self):
        """ci/run/boot-suites.sh's boot.conf of the suite: three
        NAME=VALUE lines, timeout_s, qemu_args and append, each value as it
        is to the end of its line, no quoting (a qemu or append line has
        no newline). boot-suites.sh reads it line by line; nothing sources
        it."""
        return (f"timeout_s={self.timeout}\n"
                f"qemu_args={self.qemu}\n"
                f"append={self.append}\n")

    def step_lines(self):
        """The suite's build and run steps for ci/run/stage-suite.sh, one a
        line, its words TAB-separated (none has a control character):
        DIRECTIVE PATH [MODE [--naive=HOW]] [MAKEVAR=VALUE...], a path
        relative to the repository top made absolute."""
        out = []
        for directive, args in self.steps:
            args = list(args)
            if directive != "kmod" and not args[0].startswith("/"):
                args[0] = os.path.join(TOP, args[0])
            out.append("\t".join([directive] + args))
        return out


def plan(kernels, suite_paths, extra, hints):
    """The suite runs of a matrix run: (kernel, group, cost, suite path)
    for every suite on every kernel (the kernel's properties are known only
    once it is prepared: ci/run/stage-suite.sh leaves a suite out then), EXTRA
    being {kernel: [more suite paths]}. The cost is the last run's seconds
    from HINTS {(kernel, suite): seconds}, else the suite's timeout. A
    suite the matrix plan refuses is a group of its own (its staging fails with
    the matrix plan's error, a harness row)."""
    parsed = {}

    def suite(path):
        """(name, group, timeout) of a suite file, parsed once."""
        if path not in parsed:
            try:
                s = Suite(path)
                parsed[path] = (s.name, s.boot_group(), s.timeout)
            except ModelError:
                name = suite_name(path)
                parsed[path] = (name, name, DEFAULT_TIMEOUT)
        return parsed[path]

    runs = []
    for k in kernels:
        for path in suite_paths + extra.get(k, []):
            name, group, timeout = suite(path)
            runs.append((k, group, hints.get((k, name), timeout), path))
    return runs


def boots(runs):
    """One boot per (kernel, group) of RUNS: (cost, kernel, [suite paths])
    in the order of the runs, then longest first (a stable sort)."""
    order, cost, files = [], {}, {}
    for k, group, c, path in runs:
        key = (k, group)
        if key not in cost:
            order.append(key)
            cost[key], files[key] = 0, []
        cost[key] += c
        files[key].append(path)
    out = [(cost[key], key[0], files[key]) for key in order]
    out.sort(key=lambda b: -b[0])
    return out


def suite_name(path):
    return os.path.basename(path)[:-len(".suite")]


# KERNEL/not-run.tsv under the results: the suites a kernel's needs
# left out, one line each, "SUITE<TAB>WHY<TAB>KERNEL" (WHY: the suite's
# unmet needs lines, joined by ";").  add_not_run() writes a line
# (ci/run/stage-suite.sh, through "matrix_plan.py not-run"); read_not_run()
# reads them.
NOT_RUN = "not-run.tsv"


def one_field(text):
    """text as one field of a TAB-separated line (no TAB, CR or newline)."""
    return " ".join(str(text).replace("\t", " ").splitlines()).strip()


def add_not_run(path, suite, why, kernel):
    fields = [one_field(suite), one_field(why), one_field(kernel)]
    if not fields[0] or not fields[2]:
        raise ValueError(f"{path}: a not-run line needs a suite and a "
                         f"kernel, not {fields!r}")
    with open(path, "a") as f:
        f.write("\t".join(fields) + "\n")


def read_not_run(path):
    """(suite, why, kernel) a line of path, none when there is no file;
    a line of another shape is an error naming the file and line."""
    try:
        f = open(path)
    except FileNotFoundError:
        return []
    rows = []
    with f:
        for n, line in enumerate(f, 1):
            w = line.rstrip("\n").split("\t")
            if len(w) != 3 or not w[0] or not w[2]:
                raise ValueError(f"{path}:{n}: not SUITE<TAB>WHY<TAB>KERNEL: "
                                 f"{line.rstrip()!r}")
            rows.append(tuple(w))
    return rows


def kernel_dirs(results):
    """The kernels' folders under results (sorted names)."""
    try:
        names = sorted(os.listdir(results))
    except FileNotFoundError:
        return []
    return [n for n in names if not n.startswith(".")
            and os.path.isdir(os.path.join(results, n))]


def run_seconds(results):
    """{(kernel, suite): seconds} of this run: a suite's build and boot
    seconds (its build-seconds and boot-seconds files), 0 for a suite
    not for its kernel."""
    out = {}
    for k in kernel_dirs(results):
        kd = os.path.join(results, k)
        for s in sorted(os.listdir(kd)):
            d = os.path.join(kd, s)
            if s.startswith(".") or \
                    not os.path.isfile(os.path.join(d, "results.tsv")):
                continue
            t = 0.0
            for name in ("build-seconds", "boot-seconds"):
                try:
                    with open(os.path.join(d, name)) as f:
                        for line in f:
                            if line.split():
                                t += float(line.split()[0])
                except FileNotFoundError:
                    pass
            out[(k, s)] = int(t + 0.5)
        for suite, _why, kernel in read_not_run(os.path.join(kd, NOT_RUN)):
            out.setdefault((kernel, suite), 0)
    return out


def update_hints(path, results):
    """The hints file (read_hints()) with this run's seconds (results)
    first, then the older lines for the pairs this run did not have."""
    hints = run_seconds(results)
    for key, secs in read_hints(path).items():
        hints.setdefault(key, secs)
    write_atomic(path, "".join(f"{k} {s} {t}\n"
                               for (k, s), t in hints.items()))


def read_hints(path):
    """The last run's seconds per (kernel, suite): "KERNEL SUITE SECONDS"
    lines (update_hints() writes them), a scheduling hint only: the first
    line for a pair counts, a line of another shape is ignored."""
    hints = {}
    try:
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) == 3 and w[2].isdigit():
                    hints.setdefault((w[0], w[1]), int(w[2]))
    except OSError:
        pass
    return hints


def write_atomic(path, text):
    """PATH holds TEXT, written whole (a reader never sees half)."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


# A suite file's lines: "DIRECTIVE ARG...", each argument one word as
# Suite reads it (POSIX shell quoting: shlex), qemu and append lines
# as qemu takes them; "#" starts a comment line.  Suite reads them;
# suite_text() writes them (the driver front end's suite).
def suite_text(steps, comment=None):
    """The text of a suite of steps ((directive, [args]) in order)."""
    lines = [f"# {comment}"] if comment else []
    for directive, args in steps:
        if directive not in DIRECTIVES:
            raise ModelError(f"unknown directive '{directive}'")
        if directive in ("qemu", "append"):
            lines.append(" ".join([directive] + list(args)))
        else:
            lines.append(" ".join([directive] +
                                  [shlex.quote(str(a)) for a in args]))
    return "\n".join(lines) + "\n"


def write_suite(path, steps, comment=None):
    """path holds the suite of steps, written whole and read back (a
    suite the runner would refuse is an error, and no file)."""
    write_atomic(path, suite_text(steps, comment))
    try:
        return Suite(path)
    except ModelError:
        os.unlink(path)
        raise


def cmd_driver_suite(args):
    """driver-suite FILE DRIVER MODE TIMEOUT [c|exec TEST]...: FILE holds
    the suite of ci/run/driver-matrix.sh: DRIVER converted in MODE, each
    TEST built from C (c) or run as it is (exec), TIMEOUT seconds."""
    path, driver, mode, timeout, rest = args[0], args[1], args[2], \
        args[3], args[4:]
    if len(rest) % 2:
        raise ModelError("driver-suite: tests come as pairs, c|exec FILE")
    steps = [("converted-module", [driver, mode])]
    for kind, test in zip(rest[::2], rest[1::2]):
        if kind not in ("c", "exec"):
            raise ModelError(f"driver-suite: '{kind}': want c or exec")
        steps.append(("test" if kind == "c" else "exec", [test]))
    steps.append(("timeout", [timeout]))
    write_suite(path, steps, "Generated by ci/run/driver-matrix.sh")


def plan_run(work, hints, kernels, selftests, suite_paths):
    """The plan of a matrix run: every suite on every kernel (KERNELS and
    SELFTESTS blank-separated; the self-tests on the first kernel,
    "leak" on every kernel when there are any), kept in WORK/suites
    ("KERNEL GROUP COST SUITE" a line) and WORK/boots ("COST KERNEL
    SUITE..." a line, longest first); returns (kernels, runs, boots)."""
    kernels, selftests = kernels.split(), selftests.split()
    extra = {}
    for i, k in enumerate(kernels):
        names = (selftests if i == 0 else []) + (["leak"] if selftests
                                                 else [])
        extra[k] = [os.path.join(TOP, "ci", "run", "selftest",
                                 f"{n}.suite")
                    for n in names]
    runs = plan(kernels, suite_paths, extra, read_hints(hints))
    if not runs:
        raise ModelError(f"no suite runs on the kernels {' '.join(kernels)}")
    boot_list = boots(runs)
    write_atomic(os.path.join(work, "suites"), "".join(
        f"{k} {g} {c} {p}\n" for k, g, c, p in runs))
    write_atomic(os.path.join(work, "boots"), "".join(
        f"{c} {k} {' '.join(files)}\n" for c, k, files in boot_list))
    return kernels, runs, boot_list


def run_summary(work, results, kernels, hints, seconds):
    """After the steps: the suite runs' lines (WORK/summary/KERNEL/SUITE,
    ci/boot_group.py), the suites not for a kernel, compat's macros
    per kernel; then the hints file with this run's seconds. False when
    a not-run file could not be read or the hints not written."""
    print(f"\nsuite runs ({seconds}s wall):")
    for k in kernels:
        d = os.path.join(work, "summary", k)
        for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            with open(os.path.join(d, name)) as f:
                print(f.read(), end="")
    ok = True
    print("\nsuites not for a kernel (their needs lines; "
          "KERNEL/not-run.tsv):")
    try:
        not_run_summary(results, kernels)
    except (ModelError, ValueError, OSError) as e:
        print(f"harness: reading KERNEL/not-run.tsv failed: {e}",
              file=sys.stderr)
        ok = False
    print("\ncompat macros set per kernel (compat/configure.sh):")
    for k in kernels:
        h = os.path.join(results, k, "compat", "mncompat_config.h")
        if os.access(h, os.R_OK):
            print(f"  {k}: {' '.join(config_macros(h))} ")
    # This run's seconds per suite run: the next run's scheduling hints
    # (0 for a suite that was not for its kernel).
    try:
        os.makedirs(os.path.dirname(hints), exist_ok=True)
        update_hints(hints, results)
    except (ValueError, OSError) as e:
        print(f"harness: writing {hints} failed: {e}", file=sys.stderr)
        ok = False
    sys.stdout.flush()
    return ok


def cmd_run(args):
    """run WORK RESULTS HINTS KERNELS SELFTESTS JOBS SUITE...: plan the
    matrix (plan_run), run its steps, JOBS at a time (ci/scheduler.py),
    and print what they did (run_summary). Exit 1 when a step failed or
    the summary could not be made, 2 when nothing could be planned."""
    import scheduler  # ci/scheduler.py, which imports this module
    started = time.time()
    work, results, hints, kernels, selftests, jobs = args[:6]
    if not re.fullmatch(r"[1-9][0-9]*", jobs):
        raise ModelError(f"MNCOMPAT_MATRIX_JOBS '{jobs}': give a number, 1 "
                         "or more")
    kernels, runs, boot_list = plan_run(work, hints, kernels, selftests,
                                        args[6:])
    print(f">> matrix: up to {len(runs)} suite runs (as their needs allow) "
          f"in {len(boot_list)} boots on {len(kernels)} kernel(s), {jobs} "
          "at a time", file=sys.stderr, flush=True)
    matrix = scheduler.Run(scheduler.matrix_steps(TOP, kernels, boot_list,
                                                  work, results), int(jobs))
    ran = matrix.run()
    summed = run_summary(work, results, kernels, hints,
                         int(time.time() - started))
    for name, why in matrix.failed:
        print(f"harness: step {name} failed ({why}), see {work}/log",
              file=sys.stderr)
    return 0 if ran and summed else 1


def cmd_needs(args):
    """needs SUITE PROPERTIES: exit 0 when the kernel meets the suite's
    needs, else print the needs lines and exit 1; exit 2 on a word no
    kernel has."""
    suite, props = args
    with open(props) as f:
        words = f.read().split()
    unmet = Suite(suite).unmet_needs(words)
    for line in unmet:
        print(line)
    return 1 if unmet else 0


def cmd_stage(args):
    """stage SUITE ENV_FILE CONFIG_DIR PROPERTIES: the one call of
    ci/run/stage-suite.sh. Check the suite, write the kernel's properties
    (compat's probes in CONFIG_DIR already ran) to PROPERTIES; when the
    kernel does not meet the suite's needs print the needs lines and exit
    1; else print the boot.conf lines, each after "conf ", then the
    steps. Exit 2 on a suite the matrix plan refuses."""
    suite_file, env_file, config_dir, props_file = args
    suite = Suite(suite_file)
    props = Kernel(env_file).properties(config_dir)
    write_atomic(props_file, "".join(p + "\n" for p in props))
    unmet = suite.unmet_needs(props)
    if unmet:
        print("\n".join(unmet))
        return 1
    print("".join("conf " + line + "\n"
                  for line in suite.boot_conf().splitlines()), end="")
    print("".join(line + "\n" for line in suite.step_lines()), end="")
    return 0


def cmd_config_macros(args):
    print(" ".join(config_macros(args[0])))


def cmd_config_without(args):
    """config-without HEADER FEATURE OUT_HEADER: write OUT_HEADER, HEADER
    with FEATURE turned off (config_without), and print the features it
    defines, as config-macros would."""
    if len(args) != 3:
        raise ModelError("config-without HEADER FEATURE OUT_HEADER")
    header, feature, out = args
    with open(header) as f:
        text = f.read()
    write_atomic(out, config_without(text, feature))
    print(" ".join(config_macros(out)))


def cmd_names(args):
    for row in kernel_rows(args[0]):
        print(row.name)


def cmd_check_kernels(args):
    names = {row.name for row in kernel_rows(args[0])}
    for k in args[1:]:
        if k not in names:
            raise ModelError(f"kernel '{k}' is not in {args[0]}")


def cmd_row(args):
    """row KERNELS_LIST NAME: the row's kind, its next three fields and
    how many fields it has, a value a line in that order (the list's
    fields are words: none holds a newline), once its lacks= field is
    checked; ci/kernels/prepare-kernel.sh reads them."""
    row = kernel_row(args[0], args[1])
    row.lacks(LACKS_LIST)
    print(f"{row.kind}\n{row.arg(2)}\n{row.arg(3)}\n{row.arg(4)}\n"
          f"{len(row.fields)}")


ENV_FIELDS = ("KERNEL_NAME", "KERNEL_KIND", "KERNEL_VERSION",
              "KERNEL_RELEASE", "KDIR", "KSRC", "KMODDIR", "VMLINUZ")


# The kind's optional fields: KERNEL_CC_NOTE says that the modules are
# built with another compiler than the one the kernel's tree names (a
# Debian tree naming a gcc this machine lacks); the reports show it.
OPTIONAL_ENV_FIELDS = ("KERNEL_CC_NOTE",)


def cmd_write_env(args):
    """write-env ENV_FILE NAME KIND VERSION RELEASE KDIR KSRC KMODDIR
    VMLINUZ [CC_NOTE]: what a kind's script found of a kernel, the start
    of its env file (finish-env adds its row's fields)."""
    fields = ENV_FIELDS + OPTIONAL_ENV_FIELDS
    if not 1 + len(ENV_FIELDS) <= len(args) <= 1 + len(fields):
        raise ModelError("write-env ENV_FILE " + " ".join(ENV_FIELDS)
                         + " [" + " ".join(OPTIONAL_ENV_FIELDS) + "]")
    write_atomic(args[0], "".join(env_line(k, v) for k, v
                                  in zip(fields, args[1:])
                                  if v or k in ENV_FIELDS))


# What finish-env adds to a kind script's fields.
ROW_FIELDS = ("KERNEL_APPEND", "KERNEL_PATCHES", "KERNEL_LACKS",
              "KERNEL_GENERATION", "KERNEL_BEHAVIOURS",
              "KERNEL_BEHAVIOUR_SOURCE")


def cmd_kernel(args):
    """kernel ENV_FILE FIELD...: the kernel's FIELDs' values, one a line
    in the order asked (an empty line where it has none): how a shell
    script learns them (ci/lib.sh kernel_fields reads them into the
    variables of those names) without reading the file."""
    if len(args) < 2:
        raise ModelError("kernel ENV_FILE FIELD...")
    env = Kernel(args[0]).env
    for field in args[1:]:
        known = ENV_FIELDS + OPTIONAL_ENV_FIELDS + ROW_FIELDS
        if field not in known:
            raise ModelError(f"kernel: no field {field} in an env file "
                             f"({' '.join(known)})")
        value = env.get(field, "")
        if "\n" in value:
            raise ModelError(f"kernel: {field} of {args[0]} holds a newline")
        print(value)


def cmd_mode(args):
    """mode WORD: exit 0 when WORD is a conversion mode (MODES), else an
    error naming them: the one list a suite's converted-module line and
    ci/run/convert-module.sh are checked against."""
    if len(args) != 1 or args[0] not in MODES:
        given = f"'{args[0]}'" if len(args) == 1 else "no mode"
        raise ModelError(f"{given} is no conversion mode: give "
                         + ", ".join(MODES[:-1]) + " or " + MODES[-1])


def cmd_patches(args):
    """patches NAME: the patch files of kernel-patches/NAME/series, a path
    a line in the order they apply, once the series is checked
    (PatchSeries); with no NAME, the series there are, a name a line."""
    if len(args) > 1:
        raise ModelError("patches [NAME]")
    lines = PatchSeries(args[0]).patches if args else series_names()
    print("".join(line + "\n" for line in lines), end="")


def cmd_finish_env(args):
    """finish-env KERNELS_LIST NAME ENV_FILE: add the row's fields and the
    kernel's generation to the env file the kind's script wrote."""
    row = kernel_row(args[0], args[1])
    env_file = args[2]
    env = read_env(env_file)
    with open(env_file) as f:
        text = f.read()
    lacks = row.lacks(LACKS_LIST)
    text += env_line("KERNEL_APPEND", row.append())
    text += env_line("KERNEL_PATCHES", row.patches())
    text += env_line("KERNEL_LACKS", " ".join(lacks))
    text += env_line("KERNEL_GENERATION",
                     row.generation(env.get("KERNEL_RELEASE", "")))
    words, source = kernel_behaviours(row, env)
    text += env_line("KERNEL_BEHAVIOURS", " ".join(words))
    text += env_line("KERNEL_BEHAVIOUR_SOURCE", source)
    write_atomic(env_file, text)


def behaviour_trees(row, env):
    """The source trees a kernel's behaviours are read from, in order: its
    KSRC (a source row's patched tree, a Debian row's linux-source of the
    same upload), a user row's source= option, else its build tree and the
    source tree that links to (a full build, in tree or O=)."""
    trees = [env.get("KSRC", "")]
    if row.kind == "user":
        trees.append(row.options().get("source", ""))
        kdir = env.get("KDIR", "")
        trees += [kdir, os.path.join(kdir, "source") if kdir else ""]
    return [t for t in trees if t and os.path.isdir(t)]


def kernel_behaviours(row, env):
    """(NAME=VALUE words, where they come from) of a kernel: read from its
    trees (ci/kernels/behaviours.py), a user row's behaves= declarations
    over them; a behaviour neither read nor declared is left out (its
    properties say NAME=unknown)."""
    declared = row.declared_behaviours()
    trees = behaviour_trees(row, env)
    read = behaviours.read(trees)
    words, from_tree = [], False
    for name in behaviours.BEHAVIOURS:
        if name in declared:
            words.append(f"{name}={declared[name]}")
        elif read[name][0]:
            words.append(f"{name}={read[name][0]}")
            from_tree = True
    how = []
    if from_tree:
        how.append("read from " + " ".join(trees))
    if declared:
        how.append("declared on the row (behaves=)")
    return words, "; ".join(how) or "unknown: no source tree, none declared"


def cmd_not_run(args):
    """not-run FILE SUITE WHY KERNEL: FILE gets the line of SUITE, not for
    KERNEL because of WHY."""
    path, suite, why, kernel = args
    add_not_run(path, suite, why, kernel)


def not_run_summary(results, kernels):
    """Print "  KERNEL: SUITE... " for each of KERNELS with suites not
    for it (RESULTS/KERNEL/not-run.tsv)."""
    for k in kernels:
        names = sorted(r[0] for r in
                       read_not_run(os.path.join(results, k, NOT_RUN)))
        if names:
            print(f"  {k}: " + "".join(n + " " for n in names))


COMMANDS = {
    "not-run": cmd_not_run,
    "driver-suite": cmd_driver_suite,
    "run": cmd_run, "needs": cmd_needs, "stage": cmd_stage,
    "config-macros": cmd_config_macros,
    "config-without": cmd_config_without, "names": cmd_names,
    "check-kernels": cmd_check_kernels, "row": cmd_row,
    "write-env": cmd_write_env, "finish-env": cmd_finish_env,
    "kernel": cmd_kernel, "mode": cmd_mode, "patches": cmd_patches,
}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        sys.exit("usage: matrix_plan.py " + "|".join(COMMANDS) + " ARGS...")
    try:
        return COMMANDS[argv[0]](argv[1:]) or 0
    except ModelError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
