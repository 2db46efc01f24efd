package dev.sluice.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Finds the addresses a host name stands for. */
@FunctionalInterface
public interface HostLookup {
    /** How long the JDK's resolver may take before a name counts as not resolving. */
    Duration JDK_TIMEOUT = Duration.ofSeconds(5);

    /** The JDK's resolver (the system's hosts file and DNS), bounded by {@link #JDK_TIMEOUT}. */
    HostLookup JDK = name -> {
        CompletableFuture<List<InetAddress>> lookup = new CompletableFuture<>();
        Thread.ofVirtual().name("sluice-host-lookup").start(() -> {
            try {
                lookup.complete(List.of(InetAddress.getAllByName(name)));
            } catch (UnknownHostException | RuntimeException e) {
                lookup.complete(List.of());
            }
        });
        try {
            return lookup.get(JDK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    };

    /** The addresses {@code name} resolves to; empty when it does not resolve (in time). */
    List<InetAddress> addresses(String name);
}
