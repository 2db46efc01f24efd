/**
 * A mock OpenAI-compatible upstream that fails on purpose: {@link dev.sluice.mock.MockUpstream}
 * in process, {@link dev.sluice.mock.MockCommand} as {@code sluice mock}.
 *
 * <p>Design notes. Each mode reproduces one row of the gateway's failure taxonomy with the
 * status, error type, code and wording a real provider sends, so the gateway's classifier is
 * tested against what production will show it: {@code fail} (server), {@code ratelimit}
 * (rate limited, with Retry-After), {@code auth}, {@code notfound}, {@code reject},
 * {@code context} (context window), {@code policy} (content policy), {@code cut} and
 * {@code hang} (transport and timeout). {@code times} scripts "fails N times, then
 * recovers" without a test having to switch modes mid-flight.
 *
 * <p>The {@code ok} path is the benchmark's fast upstream: it answers in the request's own
 * event-loop turn with one write, no timer and no per-call bookkeeping beyond the bounded
 * ledger. Only slow, streamed, cut and hanging calls get a {@code MockExchange}, which is
 * also what notices a client hanging up and reports it as a cancelled call.
 */
package dev.sluice.vendors.mock;

