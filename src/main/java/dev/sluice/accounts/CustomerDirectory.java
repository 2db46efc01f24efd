package dev.sluice.accounts;

import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.sluice.store.Customer;
import dev.sluice.store.CustomerRepository;
import dev.sluice.store.StoreException;
import dev.sluice.time.TimeSource;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Customers by id, read from the store when a call names one in its body's {@code user} and
 * kept for {@link KeyDirectory#DEFAULT_TTL}, as keys are: loads are single-flight, a stale
 * entry is answered at once and read again behind. A customer that cannot be read (the store
 * away) is taken as unknown: a call is never refused because the customer table could not be
 * checked. {@link #NONE} knows no customer, for a gateway without a store.
 */
public final class CustomerDirectory {
    /** Knows no customer. */
    public static final CustomerDirectory NONE = new CustomerDirectory(null, Duration.ofSeconds(1), TimeSource.system().ticker(),
            c -> { });

    private final AsyncLoadingCache<String, Optional<Customer>> entries;
    private final boolean empty;

    /** @param onRead told of every customer read from the store (to seed its spend counter), on the reading thread */
    public CustomerDirectory(CustomerRepository customers, Duration ttl, LongSupplier nanoTime, Consumer<Customer> onRead) {
        this.empty = customers == null;
        this.entries = Caffeine.newBuilder()
                .maximumSize(KeyDirectory.MAX_ENTRIES)
                .refreshAfterWrite(ttl)
                .ticker(nanoTime::getAsLong)
                .executor(read -> Thread.ofVirtual().name("sluice-customer-read").start(read))
                .buildAsync(id -> {
                    try {
                        Optional<Customer> found = customers.findById(id);
                        found.ifPresent(onRead);
                        return found;
                    } catch (StoreException e) {
                        return Optional.empty();
                    }
                });
    }

    /** The customer {@code id} names; empty when there is none. Never blocks. */
    public CompletableFuture<Optional<Customer>> find(String id) {
        return empty ? CompletableFuture.completedFuture(Optional.empty()) : entries.get(id);
    }

    /** Drops what is held of a customer changed through the customer API. */
    public void forget(String id) {
        entries.synchronous().invalidate(id);
    }
}
