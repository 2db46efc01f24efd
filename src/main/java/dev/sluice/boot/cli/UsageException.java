package dev.sluice.boot.cli;

/** A command line that cannot be run as given; the message says what is wrong. */
final class UsageException extends RuntimeException {
    UsageException(String message) {
        super(message, null, false, false);
    }
}
