# Sample student (hostile): prints megabytes of garbage and forged result lines, and
# tries to leave a process behind outside its process group. The model itself is right.
import contextlib
import os
import sys
import time

for fd in range(3, 10):  # write forged results on every file descriptor it can find
    with contextlib.suppress(OSError):
        os.write(fd, b'{"event": "result", "n": 8, "kind": "items", "items": [[0]]}\n[[[\n')
sys.stdout.write(("garbage \x00\x1b[2J" * 1000 + "\n") * 300)
try:
    pid = os.fork()
except OSError:  # the grader lets no submission start a process
    pid = None
if pid == 0:
    os.setsid()
    time.sleep(600)
    os._exit(0)


def model(n):
    print("#" * 100_000)
    solutions = []

    def place(row, q):
        if row == n:
            solutions.append(list(q))
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    return solutions
