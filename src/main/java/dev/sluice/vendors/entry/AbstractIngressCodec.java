package dev.sluice.vendors.entry;

import dev.sluice.model.Dialect;
import dev.sluice.model.Operation;

/**
 * An entry API's identity, held in one place for every codec: the route's name, the
 * operation its calls make and the dialect its callers write in. A codec built on it says only
 * how its bodies are decoded and its answers written.
 */
public abstract class AbstractIngressCodec implements IngressCodec {
    private final String name;
    private final Operation operation;
    private final Dialect dialect;

    protected AbstractIngressCodec(String name, Operation operation, Dialect dialect) {
        this.name = name;
        this.operation = operation;
        this.dialect = dialect;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Operation operation() {
        return operation;
    }

    @Override
    public final Dialect dialect() {
        return dialect;
    }
}
