package dev.sluice.testing;

import dev.sluice.store.Database;
import dev.sluice.store.Engine;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/** Runs a {@link StoreTest} once per {@link Engine}, handing it a fresh store and removing it after. */
final class BothStores implements TestTemplateInvocationContextProvider {

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> m.isAnnotationPresent(StoreTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        return Arrays.stream(Engine.values()).map(OnEngine::new);
    }

    private record OnEngine(Engine engine) implements TestTemplateInvocationContext {
        @Override
        public String getDisplayName(int invocationIndex) {
            return "[" + engine.name().toLowerCase() + "]";
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(new FreshStore(engine));
        }
    }

    /** Makes the invocation's store on first need and removes it after the test. */
    private static final class FreshStore implements ParameterResolver, AfterEachCallback {
        private final Engine engine;
        private TestDatabase store;

        FreshStore(Engine engine) {
            this.engine = engine;
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            return type == Database.class || type == TestDatabase.class || type == Engine.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            Class<?> type = parameter.getParameter().getType();
            if (type == Engine.class) {
                return engine;
            }
            if (store == null) {
                store = TestDatabases.fresh(engine);
            }
            return type == Database.class ? store.database() : store;
        }

        @Override
        public void afterEach(ExtensionContext context) {
            if (store != null) {
                store.close();
                store = null;
            }
        }
    }
}
