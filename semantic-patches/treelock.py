# SPDX-License-Identifier: GPL-2.0
"""Hold convert.sh's lock on the directories it reads and writes.

Usage: treelock.py shared|exclusive LIST
LIST names one path a line (a file stands for its directory): every
directory is locked with flock(2), in the order of their real paths (two
runs never wait for each other in a circle), shared for a dry run,
exclusive for --apply; while another run holds one, it says once on
stderr that it waits. Once all are held it prints "locked" on stdout and
holds them until its standard input ends (convert.sh keeps a pipe to it
open until it has written or put back everything and exits, and so does
a run killed outright): INT, TERM and HUP are ignored, convert.sh handles
them and lets go of the lock last. When a directory cannot
be opened it prints the reason instead and exits 1; where the filesystem
has no flock it says so on stderr and goes on without that lock.
"""
import errno
import fcntl
import os
import signal
import sys


def directories(list_path):
    """The real paths of the directories of the paths in list_path, sorted."""
    dirs = set()
    with open(list_path, encoding='utf-8', errors='surrogateescape') as fh:
        for line in fh:
            p = line.rstrip('\n')
            if not p:
                continue
            if not os.path.isdir(p):
                p = os.path.dirname(p) or '.'
            dirs.add(os.path.realpath(p))
    return sorted(dirs)


def main(argv):
    if len(argv) != 2 or argv[0] not in ('shared', 'exclusive'):
        sys.exit('usage: treelock.py shared|exclusive LIST')
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    how = fcntl.LOCK_SH if argv[0] == 'shared' else fcntl.LOCK_EX
    said = False
    held = []
    for d in directories(argv[1]):
        try:
            fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as e:
            print('cannot lock %s: %s' % (d, e.strerror), flush=True)
            return 1
        try:
            try:
                fcntl.flock(fd, how | fcntl.LOCK_NB)
            except BlockingIOError:
                if not said:
                    print('convert.sh: another convert.sh run is converting %s: '
                          'waiting for it to end' % d, file=sys.stderr, flush=True)
                    said = True
                fcntl.flock(fd, how)
        except OSError as e:
            if e.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                raise
            print('convert.sh: warning: %s cannot be locked (%s): a second run on it '
                  'at the same time is not kept out' % (d, e.strerror),
                  file=sys.stderr, flush=True)
        held.append(fd)
    print('locked', flush=True)
    # Hold them until convert.sh closes the pipe (or dies).
    while sys.stdin.buffer.read(4096):
        pass
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
