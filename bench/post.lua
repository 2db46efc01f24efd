-- wrk script: POST the JSON body given in the BENCH_BODY environment variable.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_KEY") or "none")
wrk.body = os.getenv("BENCH_BODY")

-- Report failed requests (non-2xx, socket errors, timeouts) so a run full of errors
-- cannot pass for a fast one.
function done(summary, latency, requests)
  io.write(string.format("non2xx_or_error %d\n", summary.errors.status + summary.errors.connect
    + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
