package dev.sluice.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

class SseEventSplitterTest {

    @Test
    void wholeEventsPassStraightThrough() {
        SseEventSplitter splitter = new SseEventSplitter();

        assertThat(splitter.feed(Buffer.buffer("data: a\n\ndata: b\n\n")).toString()).isEqualTo("data: a\n\ndata: b\n\n");
        assertThat(splitter.remainder().length()).isZero();
    }

    @Test
    void aPartialEventIsHeldUntilItCompletes() {
        SseEventSplitter splitter = new SseEventSplitter();

        assertThat(splitter.feed(Buffer.buffer("data: a\n\ndata: b")).toString()).isEqualTo("data: a\n\n");
        assertThat(splitter.feed(Buffer.buffer("c\n")).length()).isZero();
        assertThat(splitter.feed(Buffer.buffer("\n")).toString()).isEqualTo("data: bc\n\n");
    }

    @Test
    void crlfBoundariesCount() {
        SseEventSplitter splitter = new SseEventSplitter();

        assertThat(splitter.feed(Buffer.buffer("data: a\r\n\r\ndata: b\r\n")).toString()).isEqualTo("data: a\r\n\r\n");
        assertThat(splitter.feed(Buffer.buffer("\r\n")).toString()).isEqualTo("data: b\r\n\r\n");
    }

    @Test
    void remainderIsTheUnfinishedEvent() {
        SseEventSplitter splitter = new SseEventSplitter();
        splitter.feed(Buffer.buffer("data: a\n\ndata: par"));

        assertThat(splitter.remainder().toString()).isEqualTo("data: par");
        assertThat(splitter.remainder().length()).isZero();
    }
}
