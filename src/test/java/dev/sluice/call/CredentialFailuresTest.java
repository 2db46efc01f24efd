package dev.sluice.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.failure.FailureClass;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/** A credentials service out of reach is a transport failure; credentials refused or unreadable are an auth failure. */
class CredentialFailuresTest {

    @Test
    void aTokenServiceThatCannotBeReachedIsTransportAndRefusedCredentialsAreAuth() {
        assertThat(CredentialFailures.of(new IOException("token exchange", new SocketTimeoutException("read timed out"))).kind())
                .isEqualTo(FailureClass.TRANSPORT);
        assertThat(CredentialFailures.of(new IllegalStateException("x", new ConnectException("refused"))).kind())
                .isEqualTo(FailureClass.TRANSPORT);
        assertThat(CredentialFailures.of(new IOException("vertex_credentials: cannot read the service-account key file")).kind())
                .isEqualTo(FailureClass.AUTH);
        assertThat(CredentialFailures.of(new IllegalStateException("invalid_grant")).cause())
                .isEqualTo("could not get credentials: invalid_grant");
    }
}
