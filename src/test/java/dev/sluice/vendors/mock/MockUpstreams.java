package dev.sluice.vendors.mock;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Starts mocks for a test and stops every one of them after it, pass or fail. */
public final class MockUpstreams implements AfterEachCallback {

    private final List<MockUpstream> started = new ArrayList<>();

    public MockUpstream start(MockOptions options) {
        MockUpstream upstream = MockUpstream.start(options);
        started.add(upstream);
        return upstream;
    }

    public MockUpstream start(String name, MockMode mode) {
        return start(MockOptions.defaults(name, mode));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        started.forEach(MockUpstream::close);
        started.clear();
    }
}
