#!/usr/bin/env python3
"""What the JIT compiled during one run, from HotSpot's compilation log (docs/PERFORMANCE.md,
"Synchronization engine", fourth round): every compile task of the methods whose name contains
FILTER (default: org.tracesync), with its tier, on-stack bci, start and end (seconds since the
JVM started), duration and inlined bytes; then the uncommon traps that threw compiled code away
(reason, method and bytecode index), and the compile time per tier.

    TRACESYNC_JAVA_OPTS="-Xmx1g -XX:+UseParallelGC <the launcher's JIT flags> -XX:+UnlockDiagnosticVMOptions \\
      -XX:+LogCompilation -XX:LogFile=/tmp/comp.log" bin/tracesync sync FILE -o OUT -q
    scripts/benchmark/jit-log.py /tmp/comp.log [FILTER]

(TRACESYNC_JAVA_OPTS replaces the launcher's defaults: repeat them.)
"""
import re
import sys


def attr(name, line):
    m = re.search(name + r"='([^']*)'", line)
    return m.group(1) if m else ''


def main():
    log = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else 'org.tracesync'
    task, rows, traps = None, [], []
    trap, frames = None, []
    for line in open(log, errors='replace'):
        if line.startswith('<task '):
            task = [attr('compile_id', line), attr('level', line) or '4', attr('osr_bci', line),
                    attr('method', line), float(attr('stamp', line))]
        elif line.startswith('<task_done') and task:
            end = float(attr('stamp', line))
            rows.append(task + [end, attr('success', line), attr('inlined_bytes', line)])
            task = None
        elif line.startswith('<uncommon_trap thread='):
            trap, frames = line, []
        elif trap is not None and line.startswith('<jvms '):
            frames.append('%s @%s' % (attr('method', line), attr('bci', line)))
        elif trap is not None and line.startswith('</uncommon_trap>'):
            traps.append((attr('stamp', trap), attr('reason', trap), attr('compile_id', trap), frames))
            trap = None
    per_tier = {}
    print('%6s %4s %5s %-80s %8s %8s %7s %s' % ('id', 'tier', 'osr', 'method', 'start s', 'end s', 'ms', 'inlined bytes'))
    for cid, level, osr, method, start, end, ok, inlined in rows:
        per_tier[level] = per_tier.get(level, 0.0) + end - start
        if pattern in method:
            print('%6s %4s %5s %-80s %8.3f %8.3f %7.0f %s%s' % (cid, level, osr, method[:80], start, end,
                                                                1000 * (end - start), inlined, '' if ok == '1' else ' (not installed)'))
    print('\nuncommon traps (time s, reason, compile id, where): each sends the compiled code back to the interpreter')
    for stamp, reason, cid, where in traps:
        print('  %s %s compile %s: %s' % (stamp, reason, cid, ' <- '.join(where[:3])))
    print('\ncompile time per tier (s, wall of the compiler threads): %s' % {k: round(v, 3) for k, v in sorted(per_tier.items())})


if __name__ == '__main__':
    main()
