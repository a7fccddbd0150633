#!/usr/bin/env python3
"""A recording proxy for the Airtable API (Python standard library only).

It forwards every request to an upstream (Airtable, `drinkshop serve`, the gateway) unchanged and records
each one: when it arrived, method, path (no query string, no headers: tokens never reach the record),
the upstream's status, and whether it arrived when a token bucket of Airtable's documented limit was
empty. The bucket holds `--burst` tokens (5) refilled at `--rate` per second (5), starting full, exactly as
`drinkshop serve --rate-limit 5` polices it; a request finding it empty is "excess" (it is still
forwarded: the proxy watches, the upstream decides).

    scripts/lib/recording_proxy.py --upstream http://127.0.0.1:8080 [--port 0] [--log requests.jsonl]

prints `proxy listening on http://127.0.0.1:PORT`, then serves until SIGINT/SIGTERM and prints a summary.
While it runs, `GET /__proxy/stats` answers the summary as JSON, `GET /__proxy/records` every record, and
`POST /__proxy/reset` starts a new count. Python code can also `RecordingProxy(...).start()` it in-process.
"""
import argparse
import http.client
import http.server
import json
import signal
import sys
import threading
import time
import urllib.parse

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection",
              "content-length"}


class Bucket:
    """A token bucket: `size` tokens, refilled at `rate` per second, starting full."""

    def __init__(self, rate, size):
        self.rate = rate
        self.size = size
        self.tokens = float(size)
        self.updated = None

    def take(self, now):
        """Takes a token at `now`; returns False (and takes nothing) when the bucket is empty."""
        if self.updated is not None:
            self.tokens = min(self.size, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class RecordingProxy:
    def __init__(self, upstream, rate=5.0, burst=5, host="127.0.0.1", port=0, log_path=None, timeout=60):
        parsed = urllib.parse.urlsplit(upstream)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError("the upstream must be an http:// or https:// address, not " + upstream)
        self.scheme = parsed.scheme
        self.upstream_host = parsed.hostname
        self.upstream_port = parsed.port or (443 if parsed.scheme == "https" else 80)
        self.prefix = parsed.path.rstrip("/")
        self.rate = rate
        self.burst = burst
        self.timeout = timeout
        self.lock = threading.Lock()
        self.log_path = log_path
        self.log = open(log_path, "a", encoding="utf-8") if log_path else None
        self.reset()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def handle_one(self):
                if self.path.startswith("/__proxy/"):
                    return proxy.control(self)
                return proxy.forward(self)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = handle_one

        self.server = http.server.ThreadingHTTPServer((host, port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def reset(self):
        with self.lock:
            self.records = []
            self.bucket = Bucket(self.rate, self.burst)

    def start(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        if self.log:
            self.log.close()

    # --- forwarding

    def forward(self, handler):
        arrived = time.monotonic()
        with self.lock:
            within = self.bucket.take(arrived)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else None
        headers = {name: value for name, value in handler.headers.items() if name.lower() not in HOP_BY_HOP
                   and name.lower() != "host"}
        headers["Host"] = f"{self.upstream_host}:{self.upstream_port}"
        connection_class = http.client.HTTPSConnection if self.scheme == "https" else http.client.HTTPConnection
        status, reason, answer_headers, data = 502, "Bad Gateway", [], b""
        try:
            connection = connection_class(self.upstream_host, self.upstream_port, timeout=self.timeout)
            connection.request(handler.command, self.prefix + handler.path, body=body, headers=headers)
            response = connection.getresponse()
            status, reason, answer_headers, data = (response.status, response.reason, response.getheaders(),
                                                    response.read())
            connection.close()
        except OSError as error:
            data = json.dumps({"error": {"type": "PROXY_UPSTREAM_UNREACHABLE", "message": str(error)}}).encode()
            answer_headers = [("Content-Type", "application/json")]
        answered = time.monotonic()
        record = {"at": arrived, "wall": time.time(), "seconds": answered - arrived, "method": handler.command,
                  "path": handler.path.split("?", 1)[0], "status": status, "excess": not within}
        with self.lock:
            self.records.append(record)
            if self.log:
                self.log.write(json.dumps(record) + "\n")
                self.log.flush()
        try:
            handler.send_response(status, reason)
            for name, value in answer_headers:
                if name.lower() not in HOP_BY_HOP:
                    handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            if handler.command != "HEAD":
                handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up waiting (its own timeout); the record above already says what happened.
            record["client_gone"] = True
            handler.close_connection = True

    # --- control

    def control(self, handler):
        if handler.path == "/__proxy/stats":
            payload = self.stats()
        elif handler.path == "/__proxy/records":
            with self.lock:
                payload = list(self.records)
        elif handler.path == "/__proxy/reset" and handler.command == "POST":
            self.reset()
            payload = {"reset": True}
        else:
            payload = {"error": "unknown proxy control path"}
        data = json.dumps(payload).encode()
        handler.send_response(200 if "error" not in payload else 404)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def stats(self, since=None):
        """A summary of the records (those at or after monotonic `since`, when given)."""
        with self.lock:
            records = [r for r in self.records if since is None or r["at"] >= since]
        return summarize(records, self.rate, self.burst)


def summarize(records, rate=5.0, burst=5):
    """Requests, excess over the bucket, 429s, the span first to last arrival, and the least time the
    limit allows for that many requests (a full bucket of `burst`, then one per 1/`rate` s)."""
    count = len(records)
    span = (records[-1]["at"] - records[0]["at"]) if count > 1 else 0.0
    least = max(0.0, (count - burst) / rate)
    by_method = {}
    by_table = {}
    for record in records:
        by_method[record["method"]] = by_method.get(record["method"], 0) + 1
        # `GET Drink`, `PATCH OrderDrink`, `GET meta` (the last segment names the table; the base is left out)
        segments = record["path"].split("/")
        table = "meta" if "meta" in segments else (segments[3] if len(segments) > 3 else record["path"])
        key = f"{record['method']} {urllib.parse.unquote(table)}"
        by_table[key] = by_table.get(key, 0) + 1
    return {"requests": count, "excess": sum(1 for r in records if r["excess"]),
            "status_429": sum(1 for r in records if r["status"] == 429),
            "errors": sum(1 for r in records if r["status"] >= 500), "span": span, "least": least,
            "ratio": (span / least) if least > 0 else None, "by_method": by_method,
            "by_table": dict(sorted(by_table.items(), key=lambda item: -item[1]))}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--rate", type=float, default=5.0, help="tokens refilled per second (5)")
    parser.add_argument("--burst", type=int, default=5, help="bucket size (5)")
    parser.add_argument("--log", help="append each record as a JSON line to this file")
    args = parser.parse_args()
    proxy = RecordingProxy(args.upstream, args.rate, args.burst, args.host, args.port, args.log)
    print(f"proxy listening on http://{args.host}:{proxy.port} -> {args.upstream}", flush=True)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    proxy.start()
    stop.wait()
    summary = proxy.stats()
    proxy.stop()
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    sys.exit(main())
