#!/usr/bin/env python3
"""Whole commands timed in turns (A, B, C, A, B, C, ...), so that each sees
the same moments of a noisy machine. Prints, per command, the best, the
first quartile and the median wall time, and the median CPU time (user and
system, all threads) in milliseconds. Output is discarded. A command may
start with NAME=VALUE words, which set its environment. No shell runs in
between, so a run's time is the command's own.

Usage: benches/ab.py ROUNDS 'COMMAND A' 'COMMAND B' [...]
Example: benches/ab.py 25 '/tmp/old render -l ts list.json' 'target/release/codemode render -l ts list.json'
"""
import os
import shlex
import statistics
import sys
import time


def spawn_args(command):
    words = shlex.split(command)
    env = dict(os.environ)
    while words and "=" in words[0] and not words[0].startswith(("/", ".")):
        name, value = words.pop(0).split("=", 1)
        env[name] = value
    if not words:
        sys.exit(f"error: no program in {command!r}")
    return words, env


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        sys.exit(__doc__.split("\n\n")[1])
    rounds = int(sys.argv[1])
    commands = sys.argv[2:]
    prepared = [spawn_args(c) for c in commands]
    wall = [[] for _ in commands]
    cpu = [[] for _ in commands]
    null = os.open(os.devnull, os.O_WRONLY)
    quiet = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    for _ in range(rounds):
        for i, (words, env) in enumerate(prepared):
            start = time.perf_counter()
            pid = os.posix_spawnp(words[0], words, env, file_actions=quiet)
            _, status, usage = os.wait4(pid, 0)
            wall[i].append((time.perf_counter() - start) * 1000)
            cpu[i].append((usage.ru_utime + usage.ru_stime) * 1000)
            if status != 0:
                sys.exit(f"error: {commands[i]!r} exited with status {status}")
    for i, command in enumerate(commands):
        times = sorted(wall[i])
        print(
            f"{chr(65 + i)} best {times[0]:.2f} ms, p25 {times[len(times) // 4]:.2f} ms, "
            f"median {statistics.median(times):.2f} ms, CPU median {statistics.median(cpu[i]):.2f} ms"
            f"  ({len(times)} runs: {command})"
        )


main()
