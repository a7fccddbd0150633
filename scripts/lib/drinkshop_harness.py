"""Shared pieces of the bench and fault scripts: starting `drinkshop serve`, speaking HTTP to it, and
writing figures into the project's Markdown reports."""
import http.client
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def build(configuration="release"):
    """Builds the drinkshop products; returns the folder holding the binaries. A release build links the Swift
    runtime and Foundation in (--static-swift-stdlib), as scripts/release-check checks."""
    flags = ["-c", configuration] + (["--static-swift-stdlib"] if configuration == "release" else [])
    subprocess.run(["swift", "build"] + flags, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL if os.environ.get("QUIET_BUILD") else None)
    out = subprocess.run(["swift", "build"] + flags + ["--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


class Server:
    """A `drinkshop serve` process on a free port, with its log lines collected."""

    def __init__(self, binary, db, token="patBENCHTOKEN0000000000", extra=(), env=None):
        self.binary = binary
        self.db = db
        self.token = token
        self.extra = list(extra)
        self.env = dict(os.environ)
        self.env.update(env or {})
        self.env.update(DRINKSHOP_API_TOKEN=token, NO_COLOR="1", DRINKSHOP_SEEDS=os.path.join(ROOT, "Seeds"))
        self.log_path = db + ".serve.log"
        self.process = None
        self.port = None
        self.base_id = None

    def start(self, port=0):
        self.log = open(self.log_path, "ab")
        self.stamped = []  # (arrival time, log line), as the server writes them
        self.process = subprocess.Popen([self.binary, "serve", "--db", self.db, "--create", "--port", str(port)] + self.extra,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env)

        def copy_log(stream, log, stamped):
            for raw in iter(stream.readline, b""):
                stamped.append((time.time(), raw.decode(errors="replace").rstrip("\n")))
                log.write(raw)
                log.flush()

        self.log_thread = threading.Thread(target=copy_log, args=(self.process.stderr, self.log, self.stamped),
                                           daemon=True)
        self.log_thread.start()
        deadline = time.time() + 60
        text = ""
        while time.time() < deadline:
            line = self.process.stdout.readline().decode()
            if not line:
                raise RuntimeError("drinkshop serve ended early:\n" + text + open(self.log_path).read())
            text += line
            match = re.search(r"endpoint\s+http://[^:]+:(\d+)", line)
            if match:
                self.port = int(match.group(1))
            match = re.search(r"base id\s+(app\w+)", line)
            if match:
                self.base_id = match.group(1)
            if "Press Ctrl-C" in line:
                break
        if not (self.port and self.base_id):
            raise RuntimeError("could not read the port and base id from:\n" + text)
        return self

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process and self.process.stdout:
            self.process.stdout.close()
        if hasattr(self, "log_thread"):
            self.log_thread.join(timeout=5)
        if hasattr(self, "log"):
            self.log.close()

    def requests_since(self, moment):
        """(time, method, path, status) of each request the server logged after `moment`."""
        found = []
        for stamp, line in list(self.stamped):
            parts = line.split()
            if stamp >= moment and len(parts) >= 3 and parts[0] in ("GET", "POST", "PATCH", "PUT", "DELETE", "HEAD"):
                found.append((stamp, parts[0], parts[1], int(parts[2]) if parts[2].isdigit() else 0))
        return found

    def log_lines(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as handle:
            return handle.read().splitlines()

    def all_records(self, table, query=""):
        """Every record of `table` on this server, page after page (`query`: more of the query string)."""
        records, offset = [], None
        while True:
            path = f"/v0/{self.base_id}/{table}?pageSize=100" + (f"&{query}" if query else "") \
                + (f"&offset={offset}" if offset else "")
            status, page, _ = self.request("GET", path, timeout=30)
            if status != 200:
                raise RuntimeError(f"reading {table}: {status} {page}")
            records += page["records"]
            offset = page.get("offset")
            if not offset:
                return records

    def request(self, method, path, body=None, token=None, timeout=10, headers=None, source=None):
        """One request on a fresh connection (from the loopback address `source`, e.g. "127.1.0.2", when given);
        returns (status, parsed JSON or text, headers)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                                source_address=(source, 0) if source else None)
        token = self.token if token is None else token
        all_headers = {"Authorization": f"Bearer {token}"} if token else {}
        if body is not None:
            all_headers["Content-Type"] = "application/json"
            body = json.dumps(body).encode()
        all_headers.update(headers or {})
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = data.decode(errors="replace")
        return response.status, parsed, dict(response.getheaders())


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def write_section(path, title, body):
    """Replaces (or appends) the `## title` section of a Markdown file with `body`."""
    full = os.path.join(ROOT, path)
    text = open(full, encoding="utf-8").read() if os.path.exists(full) else ""
    section = f"## {title}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text)
    else:
        text = text.rstrip() + ("\n\n" if text else "") + section
    with open(full, "w", encoding="utf-8") as handle:
        handle.write(text.rstrip() + "\n")


def machine_line():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    return f"{os.cpu_count()} cores ({cpu}), {swift[0] if swift else 'swift'}, {time.strftime('%Y-%m-%d')}"


def temp_dir(prefix):
    return tempfile.mkdtemp(prefix=prefix)
