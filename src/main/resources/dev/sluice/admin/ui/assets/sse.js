// Reads a server-sent event stream from a fetch response body as it arrives: each event's
// data lines joined, handed over whole. The gateway sends "data: {json}" events ending with
// "data: [DONE]", or an error event and no [DONE] when a stream breaks.

/**
 * Calls onData(text) with each event's data as events arrive, until the body ends (or the
 * fetch is aborted, which rejects). Answers true when [DONE] was seen. When onData throws,
 * the body is cancelled and the error passed on.
 */
export async function readEvents(body, onData) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let done = false;
  const flush = block => {
    const data = block.split(/\r?\n/).filter(line => line.startsWith('data:'))
      .map(line => line.slice(5).replace(/^ /, '')).join('\n');
    if (!data) return;
    if (data === '[DONE]') {
      done = true;
      return;
    }
    onData(data);
  };
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
        flush(block);
      }
    }
    buffer += decoder.decode();
    if (buffer.trim()) flush(buffer);
  } catch (e) {
    reader.cancel().catch(() => {});
    throw e;
  }
  return done;
}
