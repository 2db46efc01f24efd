package dev.sluice.router;

import dev.sluice.failure.Failure;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Tells several listeners of each event, in order. Each gets the same arguments; they are
 * immutable ({@link Failure} included), so what one listener does with them cannot change
 * what the next one reads.
 *
 * <p>Every method of {@link RouterEvents} is passed on by this one handler, so an event added
 * to the interface reaches every listener without a forwarding method written for it.
 */
final class FanOutEvents implements InvocationHandler {
    private final List<RouterEvents> listeners;

    private FanOutEvents(List<RouterEvents> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    /** Events told to each of {@code listeners}, as the list holds them now. */
    static RouterEvents of(List<RouterEvents> listeners) {
        return (RouterEvents) Proxy.newProxyInstance(RouterEvents.class.getClassLoader(),
                new Class<?>[] {RouterEvents.class}, new FanOutEvents(listeners));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        if (method.getDeclaringClass() == Object.class) {
            // equals, hashCode and toString are the proxy's own, not an event.
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "FanOutEvents" + listeners;
            };
        }
        for (RouterEvents listener : listeners) {
            try {
                method.invoke(listener, args);
            } catch (InvocationTargetException e) {
                // What the listener threw, not the reflection around it.
                throw e.getCause();
            }
        }
        return null;
    }
}
