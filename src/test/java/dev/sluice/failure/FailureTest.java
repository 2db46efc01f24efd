package dev.sluice.failure;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A failure is read by several listeners in turn; none can change what it holds. */
class FailureTest {
    private static final String BODY = "{\"error\":{\"message\":\"scripted 500\"}}";

    @Test
    void writingToTheBufferItWasMadeFromChangesNothing() {
        Buffer upstream = Buffer.buffer(BODY);
        Failure failure = new Failure(FailureClass.SERVER, 500, upstream, Optional.empty(), "");

        upstream.setByte(0, (byte) 'X').appendString(" and more");

        assertThat(failure.body().toString()).isEqualTo(BODY);
    }

    @Test
    void writingToTheBodyItGivesChangesNothing() {
        Failure failure = new Failure(FailureClass.SERVER, 500, Buffer.buffer(BODY), Optional.empty(), "");

        failure.body().setByte(0, (byte) 'X').appendString(" and more");

        assertThat(failure.body().toString()).isEqualTo(BODY);
        assertThat(failure).isEqualTo(new Failure(FailureClass.SERVER, 500, Buffer.buffer(BODY), Optional.empty(), ""));
    }

    @Test
    void aLongBodyIsKeptToTheBoundAndCopied() {
        Buffer upstream = Buffer.buffer(new byte[Failure.MAX_BODY_BYTES + 1]);
        Failure failure = new Failure(FailureClass.SERVER, 500, upstream, Optional.empty(), "");

        upstream.setByte(0, (byte) 1);

        assertThat(failure.body().length()).isEqualTo(Failure.MAX_BODY_BYTES);
        assertThat(failure.body().getByte(0)).isZero();
    }

    @Test
    void aBodyAtTheBoundIsKeptWhole() {
        Failure failure = new Failure(FailureClass.SERVER, 500, Buffer.buffer(new byte[Failure.MAX_BODY_BYTES]),
                Optional.empty(), "");

        assertThat(failure.body().length()).isEqualTo(Failure.MAX_BODY_BYTES);
    }
}
