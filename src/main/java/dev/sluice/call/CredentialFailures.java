package dev.sluice.call;

import dev.sluice.failure.Failure;
import dev.sluice.failure.FailureClass;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;

/**
 * Why an attempt got no credentials (an OAuth2 token, a signing identity). Credentials that
 * cannot be read or are refused are an auth failure, which benches the deployment at once; a
 * token or metadata service that could not be reached is a transport failure, retried and
 * benched only after its allowance, as a call that could not reach its upstream would be.
 */
final class CredentialFailures {
    private CredentialFailures() {}

    static Failure of(Throwable cause) {
        String message = "could not get credentials: " + cause.getMessage();
        return Failure.of(unreachable(cause) ? FailureClass.TRANSPORT : FailureClass.AUTH, message);
    }

    private static boolean unreachable(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException || t instanceof HttpTimeoutException || t instanceof ConnectException
                    || t instanceof NoRouteToHostException || t instanceof UnknownHostException || t instanceof SocketException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
