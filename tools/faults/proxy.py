#!/usr/bin/env python3
"""A seeded HTTP/1.1 fault proxy on loopback (standard library only).

Sits between the SDK's URLSession transport and the demo backend and, per request, picks a
fault from a seeded generator:

  latency      every answer waits a base delay plus jitter, now and then a spike of seconds
  bandwidth    the answer trickles out at a few KiB/s
  reset_before the connection is reset before the request reaches the backend
  stall        the request is held past the client's timeout, then the connection is reset
  reset_mid    the backend applies the request; the answer is cut by a reset halfway
  truncate     the backend applies the request; the body is cut short and the connection closed
  error_after  the backend applies the request; the client is told 502
  duplicate    a mutation is sent to the backend twice at once
  replay_later a mutation is sent again 1-8 s after it was answered (a late duplicate)
  reorder      the answer is held 0.5-3 s, so later requests are answered first
  storm        for seconds at a time, 503 or 429 with Retry-After (1-4 s, now and then 20 s)

SIGUSR1 heals the network (no more faults); SIGTERM writes the counts and exits. Every request
is logged as a JSON line (time, Idempotency-Key, method, path, what was done, status and
Retry-After sent) for the checker.

    proxy.py --listen 18181 --upstream 18180 --seed 7 --log proxy.jsonl --stats proxy-stats.json
"""
import argparse
import asyncio
import json
import random
import signal
import socket
import struct
import sys
import time

FAULTS = {
    # fault: probability per request (storms are timed, not per request)
    "reset_before": 0.03,
    "stall": 0.015,
    "reset_mid": 0.03,
    "truncate": 0.03,
    "error_after": 0.02,
    "duplicate": 0.05,
    "replay_later": 0.05,
    "reorder": 0.05,
    "bandwidth": 0.08,
    "latency_spike": 0.04,
}


class Proxy:
    def __init__(self, args):
        self.args = args
        self.random = random.Random(args.seed)
        self.upstream = ("127.0.0.1", args.upstream)
        self.calm = False
        self.storm = None  # (status, retry_after bounds, until)
        self.counts = {}
        self.log = open(args.log, "a", buffering=1) if args.log else None
        self.scale = args.intensity

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def record(self, **fields):
        if self.log:
            fields["t"] = time.time()
            self.log.write(json.dumps(fields, sort_keys=True) + "\n")

    def chance(self, name, mutation=True):
        if self.calm or not mutation:
            return False
        return self.random.random() < FAULTS[name] * self.scale

    # Storms: now and then, for a few seconds, most requests are answered 503 or 429.
    async def storms(self):
        while True:
            await asyncio.sleep(self.random.expovariate(1 / self.args.storm_every))
            if self.calm:
                continue
            status = self.random.choice([503, 429])
            length = self.random.uniform(3, 10)
            self.storm = (status, time.time() + length)
            self.count(f"storm_{status}")
            await asyncio.sleep(length)
            self.storm = None

    def storm_answer(self):
        if self.calm or not self.storm or time.time() > self.storm[1]:
            return None
        if self.random.random() > 0.85:
            return None
        retry_after = 20 if self.random.random() < 0.05 else self.random.randint(1, 4)
        return self.storm[0], retry_after

    async def handle(self, reader, writer):
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
                    break
                lines = head.decode("latin-1").split("\r\n")
                method, target, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                body = b""
                if "content-length" in headers:
                    body = await reader.readexactly(int(headers["content-length"]))
                keep = await self.serve(method, target, headers, head, body, writer)
                if not keep or headers.get("connection", "").lower() == "close":
                    break
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            pass
        finally:
            try:
                writer.close()
            except Exception:
                pass

    def reset(self, writer):
        sock = writer.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            except OSError:
                pass
        writer.transport.abort()

    async def forward(self, head, body):
        """Sends the request to the backend on a new connection; returns the raw response or None."""
        text = head.decode("latin-1").split("\r\n")
        kept = [line for line in text[1:] if line and not line.lower().startswith("connection:")]
        request = "\r\n".join([text[0]] + kept + ["Connection: close", "", ""]).encode("latin-1") + body
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(*self.upstream), 5)
        except (OSError, asyncio.TimeoutError):
            return None
        try:
            writer.write(request)
            await writer.drain()
            data = await asyncio.wait_for(reader.read(-1), 30)
            return data or None
        except (OSError, asyncio.TimeoutError):
            return None
        finally:
            writer.close()

    @staticmethod
    def reframe(raw, keep_alive):
        """The backend's answer with its own Connection header replaced."""
        head, _, body = raw.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        kept = [line for line in lines[1:] if not line.lower().startswith("connection:")]
        framed = any(line.lower().startswith(("content-length:", "transfer-encoding:")) for line in kept)
        if not framed:
            kept.append(f"Content-Length: {len(body)}")
        kept.append("Connection: " + ("keep-alive" if keep_alive else "close"))
        status = int(lines[0].split(" ")[1]) if len(lines[0].split(" ")) > 1 else 0
        return ("\r\n".join([lines[0]] + kept) + "\r\n\r\n").encode("latin-1"), body, status

    async def send(self, writer, data, throttle=False):
        if not throttle:
            writer.write(data)
            await writer.drain()
            return
        for start in range(0, len(data), 512):
            writer.write(data[start:start + 512])
            await writer.drain()
            await asyncio.sleep(512 / (self.args.bandwidth * 1024))

    async def serve(self, method, target, headers, head, body, writer):
        key = headers.get("idempotency-key")
        mutation = method in ("POST", "PUT", "PATCH", "DELETE")
        # When the request arrived (`t` in the log is when it was answered).
        entry = {"key": key, "method": method, "path": target, "arrived": time.time()}
        self.count("requests")
        # Base latency and jitter on every request, spikes now and then.
        delay = self.args.latency / 1000 + self.random.uniform(0, self.args.jitter / 1000)
        if self.chance("latency_spike"):
            delay += self.random.uniform(1, 3)
            self.count("latency_spike")
        await asyncio.sleep(delay)

        storm = self.storm_answer()
        if storm:
            status, retry_after = storm
            reason = "Service Unavailable" if status == 503 else "Too Many Requests"
            payload = json.dumps({"error": reason.lower()}).encode()
            writer.write(
                f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nRetry-After: {retry_after}\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: keep-alive\r\n\r\n".encode() + payload)
            await writer.drain()
            self.count(f"answer_{status}")
            self.record(**entry, action=f"storm_{status}", status=status, retry_after=retry_after)
            return True
        if self.chance("reset_before"):
            self.count("reset_before")
            self.record(**entry, action="reset_before")
            self.reset(writer)
            return False
        if self.chance("stall"):
            self.count("stall")
            self.record(**entry, action="stall")
            await asyncio.sleep(self.args.stall)
            self.reset(writer)
            return False

        duplicate = mutation and self.chance("duplicate")
        if duplicate:
            self.count("duplicate")
            results = await asyncio.gather(self.forward(head, body), self.forward(head, body))
            self.record(**entry, action="duplicate_copy")
            raw = results[0]
        else:
            raw = await self.forward(head, body)
        if raw is None:
            # The backend is down (restarting): the client sees the connection reset.
            self.count("backend_down")
            self.record(**entry, action="backend_down")
            self.reset(writer)
            return False
        if mutation and self.chance("replay_later"):
            self.count("replay_later")
            asyncio.get_running_loop().create_task(self.replay_later(head, body, entry))
        keep_alive = headers.get("connection", "").lower() != "close"
        response_head, response_body, status = self.reframe(raw, keep_alive)
        if self.chance("error_after"):
            self.count("error_after")
            payload = b'{"error": "bad gateway"}'
            writer.write(
                b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {len(payload)}\r\nConnection: keep-alive\r\n\r\n".encode() + payload)
            await writer.drain()
            self.record(**entry, action="error_after", status=502, upstream=status)
            return True
        if self.chance("reorder"):
            self.count("reorder")
            await asyncio.sleep(self.random.uniform(0.5, 3))
        if self.chance("reset_mid"):
            self.count("reset_mid")
            data = response_head + response_body
            writer.write(data[: self.random.randint(1, max(1, len(data) - 1))])
            await writer.drain()
            self.record(**entry, action="reset_mid", upstream=status)
            self.reset(writer)
            return False
        if self.chance("truncate") and len(response_body) > 1:
            self.count("truncate")
            writer.write(response_head + response_body[: len(response_body) // 2])
            await writer.drain()
            self.record(**entry, action="truncate", upstream=status)
            writer.close()
            return False
        throttle = self.chance("bandwidth")
        if throttle:
            self.count("bandwidth")
        await self.send(writer, response_head + response_body, throttle)
        self.record(**entry, action="throttled" if throttle else "forward", status=status)
        return keep_alive

    async def replay_later(self, head, body, entry):
        await asyncio.sleep(self.random.uniform(1, 8))
        raw = await self.forward(head, body)
        status = self.reframe(raw, False)[2] if raw else None
        self.record(**entry, action="replay_copy", upstream=status)

    def write_stats(self):
        if self.args.stats:
            with open(self.args.stats, "w") as out:
                json.dump(self.counts, out, sort_keys=True)


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", type=int, required=True)
    parser.add_argument("--upstream", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--latency", type=float, default=20, help="base latency, ms")
    parser.add_argument("--jitter", type=float, default=150, help="uniform jitter added to the latency, ms")
    parser.add_argument("--bandwidth", type=float, default=16, help="KiB/s of a throttled answer")
    parser.add_argument("--stall", type=float, default=6, help="seconds a stalled request is held")
    parser.add_argument("--storm-every", type=float, default=25, help="mean seconds between storms")
    parser.add_argument("--intensity", type=float, default=1, help="scales every fault probability")
    parser.add_argument("--log")
    parser.add_argument("--stats")
    args = parser.parse_args()
    proxy = Proxy(args)
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", args.listen, limit=1 << 20)
    loop = asyncio.get_running_loop()
    stop = loop.create_future()

    def heal():
        proxy.calm = True
        proxy.storm = None

    loop.add_signal_handler(signal.SIGUSR1, heal)
    loop.add_signal_handler(signal.SIGTERM, lambda: stop.done() or stop.set_result(None))
    loop.add_signal_handler(signal.SIGINT, lambda: stop.done() or stop.set_result(None))
    storms = loop.create_task(proxy.storms())

    async def flush():
        while True:
            await asyncio.sleep(2)
            proxy.write_stats()

    flusher = loop.create_task(flush())
    print(f"READY {args.listen}", flush=True)
    await stop
    storms.cancel()
    flusher.cancel()
    server.close()
    proxy.write_stats()


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
