"""Mixed traffic at a fixed rate against one gateway for a given time, with the gateway's
memory sampled at a fixed period. Used by bench/soak.sh; standard library only.

Every request is one kind (chat, streamed chat, Messages, Responses, embeddings, error
traffic, scrapes), chosen in a fixed repeating order so each kind keeps its share of the rate.
Each kind has the statuses it may answer with; anything else, a dropped connection, a timeout
or a stream that does not end is counted as unexpected. Every SAMPLE_S seconds one CSV row
records the serving JVM's resident memory (/proc/PID/status), its heap from /metrics and its
open sockets. At the end a Markdown summary goes to stdout.

Usage: soak.py HOST PORT MASTER_KEY VIRTUAL_KEY PID DURATION_S RATE SAMPLE_S CSV
"""
import collections
import http.client
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HOST, PORT, MASTER, VKEY = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
PID, DURATION, RATE, SAMPLE_S, CSV = int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7]), float(sys.argv[8]), sys.argv[9]
FLAT_MB_PER_HOUR = float(os.environ.get("FLAT_MB_PER_HOUR", "10"))
WORKERS = 32
TIMEOUT_S = 30


def chat(model, stream=False):
    body = {"model": model, "messages": [{"role": "user", "content": "Say something short"}]}
    if stream:
        body["stream"] = True
    return json.dumps(body)


MESSAGES = json.dumps({"model": "bench", "max_tokens": 64, "messages": [{"role": "user", "content": "Say something short"}]})
MESSAGES_STREAM = json.dumps({"model": "bench", "max_tokens": 64, "stream": True,
                              "messages": [{"role": "user", "content": "Say something short"}]})
RESPONSES = json.dumps({"model": "bench", "input": "Say something short"})
EMBEDDINGS = json.dumps({"model": "bench", "input": ["one short line", "and another"]})
OK = {200}
UPSTREAM_FAILED = {500, 502, 503}

# kind -> (method, path, key, body, expected statuses, stream end marker or None), weight per 100
KINDS = {
    "chat": (("POST", "/v1/chat/completions", VKEY, chat("bench"), OK, None), 30),
    "chat_stream": (("POST", "/v1/chat/completions", VKEY, chat("bench", True), OK, b"data: [DONE]"), 10),
    "chat_stream_slow": (("POST", "/v1/chat/completions", VKEY, chat("slow", True), OK, b"data: [DONE]"), 5),
    "messages": (("POST", "/v1/messages", VKEY, MESSAGES, OK, None), 10),
    "messages_stream": (("POST", "/v1/messages", VKEY, MESSAGES_STREAM, OK, b"message_stop"), 3),
    "responses": (("POST", "/v1/responses", VKEY, RESPONSES, OK, None), 10),
    "embeddings": (("POST", "/v1/embeddings", VKEY, EMBEDDINGS, OK, None), 10),
    "flaky_upstream": (("POST", "/v1/chat/completions", VKEY, chat("flaky"), OK | UPSTREAM_FAILED, None), 8),
    "failing_upstream": (("POST", "/v1/chat/completions", VKEY, chat("broken"), UPSTREAM_FAILED, None), 2),
    "unknown_model": (("POST", "/v1/chat/completions", VKEY, chat("no-such-model"), {400, 404}, None), 3),
    "bad_key": (("POST", "/v1/chat/completions", "sk-not-a-key", chat("bench"), {401}, None), 3),
    "malformed_json": (("POST", "/v1/chat/completions", VKEY, '{"model": "bench", "messages": [', {400}, None), 3),
    "metrics": (("GET", "/metrics", MASTER, None, OK, None), 1),
    "health": (("GET", "/health/liveliness", None, None, OK, None), 2),
}
ORDER = []  # each kind spread evenly over a cycle of 100 slots
for kind, (_, weight) in KINDS.items():
    ORDER += [((i + 0.5) / weight, kind) for i in range(weight)]
ORDER = [kind for _, kind in sorted(ORDER)]

lock = threading.Lock()
sent = collections.Counter()
statuses = collections.defaultdict(collections.Counter)
unexpected = collections.Counter()
examples = []
skipped = 0
local = threading.local()
rows = []  # the CSV's rows, for the summary's table


def connection():
    if getattr(local, "conn", None) is None:
        local.conn = http.client.HTTPConnection(HOST, PORT, timeout=TIMEOUT_S)
    return local.conn


def call(kind):
    method, path, key, body, expected, marker = KINDS[kind][0]
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key:
        headers["Authorization"] = "Bearer " + key
    try:
        conn = connection()
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        status = str(response.status)
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
            local.conn = None
        problem = None
        if response.status not in expected:
            problem = f"status {status}: {data[:200]!r}"
        elif marker is not None and response.status == 200 and marker not in data:
            problem = f"stream without {marker.decode()}: {data[-200:]!r}"
    except Exception as failure:  # a dropped connection or a timeout: counted, then a fresh connection
        if getattr(local, "conn", None) is not None:
            local.conn.close()
        local.conn = None
        status, problem = "no answer", f"{type(failure).__name__}: {failure}"
    with lock:
        statuses[kind][status] += 1
        if problem:
            unexpected[kind] += 1
            if len(examples) < 20:
                examples.append(f"{time.strftime('%H:%M:%S')} {kind}: {problem}")


def process_status():
    fields = {}
    with open(f"/proc/{PID}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            fields[name] = value.split()
    return int(fields["VmRSS"][0]) / 1024, int(fields["VmHWM"][0]) / 1024, int(fields["Threads"][0])


def sockets():
    count = 0
    for fd in os.listdir(f"/proc/{PID}/fd"):
        try:
            if os.readlink(f"/proc/{PID}/fd/{fd}").startswith("socket:"):
                count += 1
        except OSError:
            pass
    return count


def heap():
    """Heap used now, and heap used after the last collection of each pool (client_java's series), in MB."""
    conn = http.client.HTTPConnection(HOST, PORT, timeout=TIMEOUT_S)
    try:
        conn.request("GET", "/metrics", headers={"Authorization": "Bearer " + MASTER})
        text = conn.getresponse().read().decode()
    finally:
        conn.close()
    used, after_gc, nonheap = None, 0.0, None
    for line in text.splitlines():
        if line.startswith('jvm_memory_used_bytes{area="heap"}'):
            used = float(line.split()[-1]) / 2**20
        elif line.startswith('jvm_memory_used_bytes{area="nonheap"}'):
            nonheap = float(line.split()[-1]) / 2**20
        elif line.startswith("jvm_memory_pool_collection_used_bytes{"):
            after_gc += float(line.split()[-1]) / 2**20
    return used, after_gc, nonheap


def sample(started, writer):
    rss, hwm, threads = process_status()
    try:
        used, after_gc, nonheap = heap()
    except Exception:
        used, after_gc, nonheap = None, None, None
    with lock:
        total, bad = sum(sent.values()), sum(unexpected.values())
        non_2xx = sum(n for by in statuses.values() for s, n in by.items() if not s.startswith("2"))
    fmt = lambda v: "" if v is None else f"{v:.1f}"
    row = [f"{time.monotonic() - started:.0f}", time.strftime("%H:%M:%S"), f"{rss:.1f}", f"{hwm:.1f}", fmt(used),
           fmt(after_gc), fmt(nonheap), str(threads), str(sockets()), str(total), str(non_2xx), str(bad), str(skipped)]
    writer.write(",".join(row) + "\n")
    writer.flush()
    rows.append(row)
    return float(row[0]), rss


def slope_per_hour(points):
    n = len(points)
    if n < 2:
        return float("nan")
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx * 3600 if sxx else float("nan")


def main():
    global skipped
    free = threading.Semaphore(WORKERS)
    pool = ThreadPoolExecutor(WORKERS)

    def run(kind):
        try:
            call(kind)
        finally:
            free.release()

    rss_points = []
    with open(CSV, "w") as writer:
        writer.write("t_s,time,rss_mb,hwm_mb,heap_used_mb,heap_after_gc_mb,nonheap_mb,threads,sockets,"
                     "requests,non_2xx,unexpected,skipped\n")
        started = time.monotonic()
        rss_points.append(sample(started, writer))
        next_sample = started + SAMPLE_S
        interval = 1.0 / RATE
        slot = 0
        while True:
            now = time.monotonic()
            if now - started >= DURATION:
                break
            if now >= next_sample:
                rss_points.append(sample(started, writer))
                next_sample += SAMPLE_S
            due = started + slot * interval
            if due > now:
                time.sleep(min(due - now, max(0.0, next_sample - now)))
                continue
            kind = ORDER[slot % len(ORDER)]
            slot += 1
            if not free.acquire(blocking=False):  # every worker busy: the gateway is not keeping up
                with lock:
                    skipped += 1
                continue
            with lock:
                sent[kind] += 1
            pool.submit(run, kind)
        pool.shutdown(wait=True)
        rss_points.append(sample(started, writer))
    report(rss_points, time.monotonic() - started)
    sys.exit(1 if sum(unexpected.values()) else 0)


def report(rss_points, elapsed):
    rss = [r for _, r in rss_points]
    half = [p for p in rss_points if p[0] >= rss_points[-1][0] / 2]
    slope = slope_per_hour(half)
    total = sum(sent.values())
    print(f"- duration: {elapsed:.0f} s, {total} requests ({total / elapsed:.1f}/s), {skipped} skipped with every worker busy")
    print(f"- resident memory of the serving JVM: first {rss[0]:.0f} MB, last {rss[-1]:.0f} MB, "
          f"min {min(rss):.0f} MB, max {max(rss):.0f} MB")
    print(f"- slope over the second half (least squares, {len(half)} samples): {slope:+.1f} MB per hour")
    print(f"- verdict: {'flat' if abs(slope) < FLAT_MB_PER_HOUR else 'NOT flat'} "
          f"(flat means under {FLAT_MB_PER_HOUR:.0f} MB per hour either way)")
    print()
    step = max(SAMPLE_S, DURATION / 6)  # six rows: every 10 minutes of an hour
    print("| minute | RSS MB | heap used MB | heap after GC MB | non-heap MB | threads | sockets | requests | unexpected |")
    print("|---|---|---|---|---|---|---|---|---|")
    mark = 0.0
    for i, row in enumerate(rows):
        if float(row[0]) >= mark - SAMPLE_S / 2 or i == len(rows) - 1:
            print(f"| {float(row[0]) / 60:.0f} | {row[2]} | {row[4]} | {row[5]} | {row[6]} | {row[7]} | {row[8]} | {row[9]} | {row[11]} |")
            while mark <= float(row[0]) + SAMPLE_S / 2:
                mark += step
    print()
    bad = sum(unexpected.values())
    print(f"- unexpected answers (a status outside the kind's expected set, no answer, a stream without its end): {bad}")
    print()
    print("| kind | sent | statuses | unexpected |")
    print("|---|---|---|---|")
    for kind in KINDS:
        by = ", ".join(f"{s}: {n}" for s, n in sorted(statuses[kind].items()))
        print(f"| {kind} | {sent[kind]} | {by} | {unexpected[kind]} |")
    if examples:
        print()
        print("First unexpected answers:")
        for line in examples:
            print(f"- {line}")


main()
