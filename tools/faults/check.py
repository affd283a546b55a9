#!/usr/bin/env python3
"""Checks a fault run (drive.py) from what it left behind:

  u*.journal        each simulated user's journal: intents (written before a mutation is sent),
                    acknowledgements (applied, or queued: both promise delivery), typed failures,
                    the queue's events (delivered, conflict, rejected, expired, retry), screen
                    loads with their outcome and duration, gauges (queue, cache, memory)
  backend.sqlite    the demo backend's applied_mutation log (one row per mutation it handled, in
                    the transaction that applied it) and its records
  proxy.jsonl       every request the fault proxy saw and what it did to it
  proxy-stats.json  the proxy's fault counts
  driver.json       kills and backend restarts

and asserts: every acknowledged mutation applied exactly once (none lost across kills, none
twice), per-record order kept, conflicts resolved by the user's strategy and reported, no screen
load past its budget (no stuck spinner), queue, cache and memory bounded, Retry-After honoured
and no retry loop. Prints one summary line and exits 1 on any violation.

    check.py <state folder>
"""
import glob
import json
import os
import re
import sqlite3
import sys
from collections import defaultdict

# The workload's settings (tools/faults/Workload/Device.swift, Settings).
TIMEOUT, RETRIES, MAX_RETRY_AFTER = 4, 2, 5
LOAD_BUDGET = 2 * ((RETRIES + 1) * TIMEOUT + RETRIES * MAX_RETRY_AFTER) + 2
CACHE_BYTES, CACHE_ENTRIES = 256 << 10, 24
QUEUE_BOUND = 1000  # the workload's queue capacity: a change beyond it is refused ("offline queue full")
RSS_BOUND_MB = 512
STRATEGIES = ["clientWins", "merge", "serverWins"]


def base_key(key):
    """The operation a key belongs to: a resolved conflict is resent as `<key>~<n>`."""
    return key.split("~", 1)[0] if key else key


def main():
    state = sys.argv[1]
    violations = defaultdict(list)
    intents, acks, fails, events = {}, {}, {}, defaultdict(list)
    loads, gauges, healed, sessions = [], [], [], defaultdict(list)
    for path in sorted(glob.glob(os.path.join(state, "u*.journal"))):
        user = os.path.basename(path).split(".")[0]
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a kill
                event["user"] = user
                kind = event["ev"]
                sessions[(user, event["session"])].append(event["t"])
                if kind == "intent":
                    intents[event["key"]] = event
                elif kind == "ack":
                    acks[event["key"]] = event
                elif kind == "fail":
                    fails[event["key"]] = event
                elif kind in ("delivered", "conflict", "rejected", "expired", "awaiting", "retry"):
                    events[base_key(event["key"])].append(event)
                elif kind == "load":
                    loads.append(event)
                elif kind == "gauge":
                    gauges.append(event)
                elif kind == "healed":
                    healed.append(event)
    strategy_of = {f"u{index}": STRATEGIES[index % 3] for index in range(64)}

    database = sqlite3.connect(os.path.join(state, "backend.sqlite"))
    rows = database.execute(
        "SELECT seq, idempotency_key, method, path, status, record_id, body, at FROM applied_mutation ORDER BY seq"
    ).fetchall()
    delete_of = {i["record"]: k for k, i in intents.items() if i["kind"] == "delete"}
    applied = defaultdict(list)  # base key -> rows with 2xx
    answered = defaultdict(list)  # base key -> every row
    for row in rows:
        seq, key, method, path, status, record, body, at = row
        if path.endswith("/v1/auth/login") or path.endswith("/v1/auth/refresh"):
            continue
        if key is None and body:
            # Sent without its key (a broken build): known by the title the user gave it.
            sent = json.loads(body)
            title = sent.get("title", "") if isinstance(sent, dict) else ""
            match = re.match(r"fw-(u\d+)- op (\d+)$", str(title))
            key = f"{match.group(1)}-op{match.group(2)}" if match else None
        if key is None and method == "DELETE":
            key = delete_of.get(path.rsplit("/", 1)[-1])
        if key is None or base_key(key) not in intents:
            if 200 <= status < 300:
                violations["phantom"].append(f"{method} {path} key={key}: applied, and no user's operation has that key")
            continue
        answered[base_key(key)].append(row)
        if 200 <= status < 300:
            applied[base_key(key)].append(row)

    # Exactly once.
    duplicated = [key for key, found in applied.items() if len(found) > 1]
    for key in duplicated:
        violations["duplicated"].append(f"{key} applied {len(applied[key])} times (seq {[r[0] for r in applied[key]]})")
    lost, dropped_server_wins, rejected = [], [], []
    for key, ack in acks.items():
        if applied.get(key):
            continue
        statuses = [r[4] for r in answered.get(key, [])]
        user = intents[key]["user"]
        if 409 in statuses and strategy_of[user] == "serverWins":
            dropped_server_wins.append(key)
            continue
        if any(400 <= s < 500 and s not in (408, 409, 429) for s in statuses):
            # Refused by the server (a record deleted by an earlier change): reported, not lost.
            rejected.append(key)
            if not any(e["ev"] == "rejected" for e in events[key]) and ack["how"] == "queued":
                violations["unreported"].append(f"{key} refused ({statuses}) without a rejected event")
            continue
        lost.append(key)
        violations["lost"].append(
            f"{key} ({intents[key]['kind']}) acknowledged as {ack['how']}, never applied; backend said {statuses}; "
            f"events {[e['ev'] for e in events[key]]}")

    # Conflicts: resolved by the user's strategy, and reported.
    conflicts = 0
    for key, found in answered.items():
        conflict_rows = [r for r in found if r[4] == 409]
        if not conflict_rows or key not in acks or acks[key]["how"] != "queued":
            continue
        conflicts += 1
        user = intents[key]["user"]
        strategy = strategy_of[user]
        later = [r for r in applied.get(key, []) if r[0] > conflict_rows[0][0]]
        if strategy == "serverWins" and later:
            violations["strategy"].append(f"{key}: serverWins, yet the change was applied after the 409")
        for row in later:
            # clientWins and merge: the user's change is what the record gets.
            sent = json.loads(row[6]) if row[6] else {}
            if intents[key].get("title") and sent.get("title") != intents[key]["title"]:
                violations["strategy"].append(f"{key}: {strategy} sent {sent.get('title')!r}, not the user's change")
        reported = any(e["ev"] == "conflict" for e in events[key])
        if not reported:
            # Excused only when the app was killed before it could report.
            at = conflict_rows[0][7]
            alive_after = any(
                t > at + 5 for (u, _), times in sessions.items() if u == user for t in times
                if min(times) <= at)
            if alive_after:
                violations["unreported"].append(f"{key}: 409 at the backend, no conflict event from {user}")

    # Per-record order: the operations applied to one record come in the order the user made them.
    out_of_order = 0
    by_record = defaultdict(list)
    for key, found in applied.items():
        for row in found:
            record = row[5]
            if intents[key]["kind"] != "create":
                record = intents[key].get("record") or record
            by_record[record].append((row[0], intents[key]["op"], key))
    for record, ops in by_record.items():
        ops.sort()
        for (seq_a, op_a, key_a), (seq_b, op_b, key_b) in zip(ops, ops[1:]):
            if op_b < op_a:
                out_of_order += 1
                violations["out of order"].append(f"{record}: {key_b} applied after {key_a}")

    # No stuck spinner.
    stuck = [load for load in loads if load.get("stuck") or load["secs"] > LOAD_BUDGET]
    for load in stuck:
        violations["stuck"].append(f"{load['user']} screen load took {load['secs']:.1f} s (budget {LOAD_BUDGET} s)")
    outcomes = defaultdict(int)
    for load in loads:
        outcomes[load["outcome"]] += 1

    # Bounded.
    max_queue = max((g["queue"] for g in gauges), default=0)
    max_cache = max((g["cache_bytes"] for g in gauges), default=0)
    max_entries = max((g["cache_entries"] for g in gauges), default=0)
    max_rss = max((g["rss_mb"] for g in gauges), default=0)
    if max_queue > QUEUE_BOUND:
        violations["unbounded"].append(f"queue reached {max_queue}")
    if max_cache > CACHE_BYTES or max_entries > CACHE_ENTRIES:
        violations["unbounded"].append(f"cache reached {max_cache} bytes, {max_entries} entries")
    if max_rss > RSS_BOUND_MB:
        violations["unbounded"].append(f"memory reached {max_rss} MiB")
    left = [h for h in healed if h.get("remaining", 0) != 0]
    for h in left:
        violations["lost"].append(f"{h['user']}: {h['remaining']} requests still queued after healing")

    # Retry-After honoured, and no retry loop.
    attempts = defaultdict(list)
    proxy_log = os.path.join(state, "proxy.jsonl")
    if os.path.exists(proxy_log):
        with open(proxy_log) as handle:
            for line in handle:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("key") and entry["action"] not in ("duplicate_copy", "replay_copy"):
                    attempts[entry["key"]].append(entry)
    driver = {}
    if os.path.exists(os.path.join(state, "driver.json")):
        driver = json.load(open(os.path.join(state, "driver.json")))
    kill_times = [e["t"] for e in driver.get("events", []) if e["ev"] == "kill_workload"]
    retry_after_ignored = hot = 0
    for key, tries in attempts.items():
        # An answer given after the process that asked was killed reached no one.
        tries = [e for e in tries if not any(e["arrived"] <= k <= e["t"] for k in kill_times)]
        # By arrival: a request sent before an answer (by a process killed since) is no retry of it.
        tries.sort(key=lambda e: e["arrived"])
        for index, earlier in enumerate(tries):
            wait = earlier.get("retry_after")
            later = next((e for e in tries[index + 1:] if e["arrived"] > earlier["t"]), None)
            if wait is not None and later and later["arrived"] < earlier["t"] + wait - 0.2:
                retry_after_ignored += 1
                violations["retry-after"].append(
                    f"{key}: retried {later['arrived'] - earlier['t']:.2f} s after Retry-After: {wait}")
        for index in range(len(tries) - 4):
            if tries[index + 4]["arrived"] - tries[index]["arrived"] < 1:
                hot += 1
                violations["retry loop"].append(f"{key}: 5 attempts within a second")
                break

    stats = {}
    if os.path.exists(os.path.join(state, "proxy-stats.json")):
        stats = json.load(open(os.path.join(state, "proxy-stats.json")))
    injected = sum(v for k, v in stats.items() if k not in ("requests",) and not k.startswith("storm_"))
    offline = 0
    skews = 0
    for path in glob.glob(os.path.join(state, "u*.journal")):
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        offline += text.count('"ev":"offline"')
        skews += text.count('"ev":"skew"')
    faults = injected + driver.get("backend_restarts", 0) + offline + skews
    kills = driver.get("kills", 0)

    print(
        f"{len(intents)} operations, {faults} faults, {kills} kills, {len(lost) + len(left)} lost, "
        f"{len(duplicated)} duplicated, {out_of_order} out of order, {len(stuck)} stuck")
    ack_applied = sum(1 for a in acks.values() if a["how"] == "applied")
    ack_queued = sum(1 for a in acks.values() if a["how"] == "queued")
    print(
        f"  acknowledged {len(acks)} ({ack_applied} applied online, {ack_queued} queued), {len(fails)} typed errors "
        f"({sum(1 for f in fails.values() if f.get('code') == 'offline queue full')} queue full), "
        f"{len(intents) - len(acks) - len(fails)} cut by a kill; {conflicts} queued conflicts "
        f"({len(dropped_server_wins)} dropped by serverWins), {len(rejected)} refused by the server; "
        f"{len(loads)} screen loads ({', '.join(f'{v} {k}' for k, v in sorted(outcomes.items()))}), "
        f"slowest {max((l['secs'] for l in loads), default=0):.1f} s of {LOAD_BUDGET} s")
    print(
        f"  faults: {json.dumps({k: v for k, v in sorted(stats.items()) if k != 'requests'})}, "
        f"{driver.get('backend_restarts', 0)} backend restarts, {offline} offline periods, {skews} clock jumps; "
        f"{stats.get('requests', 0)} requests through the proxy")
    print(
        f"  bounds: queue max {max_queue}, cache max {max_cache} B / {max_entries} entries, memory max {max_rss} MiB; "
        f"Retry-After ignored {retry_after_ignored}, retry loops {hot}")
    if violations:
        for kind, items in sorted(violations.items()):
            print(f"VIOLATION {kind}: {len(items)}")
            for item in items[:10]:
                print(f"  {item}")
        sys.exit(1)


if __name__ == "__main__":
    main()
