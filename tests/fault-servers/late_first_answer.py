#!/usr/bin/env python3
"""A stdio proxy for the crawler's retry test: runs COMMAND ARGS... as its child and passes lines both
ways, except that on its first run (while MARKER does not exist; the run creates it) it holds the child's
first stdout line for DELAY seconds. Run under a crawler that probes with `server/discover` and gives up
after a fixed wait, the late answer to the probe arrives where the answer to `initialize` is expected.

Usage: late_first_answer.py MARKER DELAY COMMAND [ARGS...]
Standard library only; never touches the network.
"""
import os
import subprocess
import sys
import threading
import time

marker, delay, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
first_run = not os.path.exists(marker)
if first_run:
    open(marker, "w").close()
child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def pump_in():
    for line in sys.stdin.buffer:
        child.stdin.write(line)
        child.stdin.flush()
    child.stdin.close()


threading.Thread(target=pump_in, daemon=True).start()
out = sys.stdout.buffer
for n, line in enumerate(child.stdout):
    if n == 0 and first_run:
        time.sleep(delay)
    out.write(line)
    out.flush()
sys.exit(child.wait())
