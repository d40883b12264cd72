"""proctime: a child's exit status with the CPU time it and its own
children used (tools/check/matrix.py per boot and per snapshot)."""

import os


def wait_cpu(proc):
    """Waits for proc (a subprocess.Popen); returns (exit status, user +
    system seconds of it and of every process it waited for).  wait4, not
    RUSAGE_CHILDREN: other children of this process run at the same time."""
    try:
        _, status, ru = os.wait4(proc.pid, 0)
    except ChildProcessError:           # already reaped
        return proc.wait(), 0.0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, ru.ru_utime + ru.ru_stime
