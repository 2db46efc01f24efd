"""Opens N concurrent streamed chat completions against a gateway, ROUNDS times, and checks
that every one ended with `data: [DONE]`. Used by bench/streams.sh; prints one line per round."""
import asyncio
import json
import sys
import time

HOST, PORT, KEY, STREAMS, ROUNDS = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
BODY = json.dumps({"model": "bench", "stream": True,
                   "messages": [{"role": "user", "content": "stream something slowly"}]}).encode()
REQUEST = (f"POST /v1/chat/completions HTTP/1.1\r\nHost: {HOST}:{PORT}\r\nAuthorization: Bearer {KEY}\r\n"
           f"Content-Type: application/json\r\nContent-Length: {len(BODY)}\r\nConnection: close\r\n\r\n").encode() + BODY


async def one_stream():
    reader, writer = await asyncio.open_connection(HOST, PORT)
    writer.write(REQUEST)
    await writer.drain()
    data = await reader.read()  # Connection: close, so the body ends with the connection
    writer.close()
    return data.startswith(b"HTTP/1.1 200") and b"data: [DONE]" in data


async def main():
    failed = 0
    for round_number in range(1, ROUNDS + 1):
        started = time.monotonic()
        results = await asyncio.gather(*(one_stream() for _ in range(STREAMS)), return_exceptions=True)
        complete = sum(1 for r in results if r is True)
        failed += STREAMS - complete
        print(f"round {round_number}: {complete}/{STREAMS} streams complete in {time.monotonic() - started:.1f} s", flush=True)
    sys.exit(1 if failed else 0)


asyncio.run(main())
