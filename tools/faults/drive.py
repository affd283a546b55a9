#!/usr/bin/env python3
"""Runs one fault run: the demo backend, the fault proxy and the workload, killing the workload
with SIGKILL at random points (and restarting it), killing and restarting the backend now and
then; then heals the network, lets every queue drain, and stops everything. The checker
(check.py) reads what is left in the state folder.

    drive.py <workload binary> <state folder> <seconds> [--seed N] [--users N]
"""
import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(process, what, timeout=30):
    deadline = time.time() + timeout
    line = process.stdout.readline()
    if not line.startswith("READY") or time.time() > deadline:
        sys.exit(f"{what} did not start: {line!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("state")
    parser.add_argument("seconds", type=float)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--users", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.state, exist_ok=True)
    state = os.path.abspath(args.state)
    admin_port, mobile_port, proxy_port = free_port(), free_port(), free_port()
    database = os.path.join(state, "backend.sqlite")
    backend_log = open(os.path.join(state, "backend.out"), "a")
    workload_log = open(os.path.join(state, "workload.out"), "a")

    def start_backend():
        process = subprocess.Popen(
            [args.binary, "backend", database, str(admin_port), str(mobile_port)], stdout=subprocess.PIPE,
            stderr=backend_log, text=True)
        wait_ready(process, "the backend")
        return process

    backend = start_backend()
    proxy = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "proxy.py"), "--listen", str(proxy_port), "--upstream", str(mobile_port),
         "--seed", str(args.seed), "--log", os.path.join(state, "proxy.jsonl"),
         "--stats", os.path.join(state, "proxy-stats.json")],
        stdout=subprocess.PIPE, text=True)
    wait_ready(proxy, "the proxy")
    base = f"http://127.0.0.1:{proxy_port}"
    # Kill often enough for a short run to see several, and a 30-minute soak well over 20.
    kill_every = (5, 20) if args.seconds <= 300 else (15, 60)
    restart_every = (20, 60) if args.seconds <= 300 else (40, 120)
    start = time.time()
    deadline = start + args.seconds
    kills = restarts = runs = 0
    workload = None
    next_kill = start + rng.uniform(*kill_every)
    next_restart = start + rng.uniform(*restart_every)
    events = []
    while time.time() < deadline:
        now = time.time()
        if workload is None or workload.poll() is not None:
            runs += 1
            workload = subprocess.Popen(
                [args.binary, "run", state, base, str(args.users), str(args.seed * 1000 + runs),
                 str(max(1, deadline - now)), "skew"],
                stdout=workload_log, stderr=workload_log)
        if now >= next_kill:
            workload.send_signal(signal.SIGKILL)
            workload.wait()
            kills += 1
            events.append({"t": now, "ev": "kill_workload"})
            workload = None
            next_kill = now + rng.uniform(*kill_every)
            continue
        if now >= next_restart:
            backend.send_signal(signal.SIGKILL)
            backend.wait()
            events.append({"t": now, "ev": "kill_backend"})
            time.sleep(rng.uniform(0.5, 3))
            backend = start_backend()
            restarts += 1
            events.append({"t": time.time(), "ev": "backend_up"})
            next_restart = time.time() + rng.uniform(*restart_every)
        time.sleep(0.1)
    if workload is not None:
        try:
            workload.wait(timeout=30)
        except subprocess.TimeoutExpired:
            workload.send_signal(signal.SIGKILL)
            workload.wait()
    # Heal: no more faults, and every device online at the right time until its queue is empty.
    proxy.send_signal(signal.SIGUSR1)
    events.append({"t": time.time(), "ev": "healed_network"})
    heal = subprocess.run(
        [args.binary, "heal", state, base, str(args.users), "180"], stdout=subprocess.PIPE, stderr=workload_log, text=True)
    proxy.send_signal(signal.SIGTERM)
    proxy.wait()
    backend.send_signal(signal.SIGTERM)
    backend.wait()
    with open(os.path.join(state, "driver.json"), "w") as out:
        json.dump({
            "seconds": args.seconds, "seed": args.seed, "users": args.users, "kills": kills,
            "backend_restarts": restarts, "workload_runs": runs, "heal": heal.stdout.strip(),
            "heal_status": heal.returncode, "events": events,
        }, out, indent=1)


if __name__ == "__main__":
    main()
