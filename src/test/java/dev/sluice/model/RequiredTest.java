package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The several-components null check: the first null one is refused by its name. */
class RequiredTest {

    @Test
    void passesWhenEveryComponentIsPresent() {
        assertThatCode(() -> Required.nonNull("a, b, c", "x", 1, new Object())).doesNotThrowAnyException();
    }

    @Test
    void namesTheFirstNullComponent() {
        assertThatThrownBy(() -> Required.nonNull("a, b, c", "x", null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("b");
        assertThatThrownBy(() -> Required.nonNull("a, b, c", "x", 1, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("c");
    }

    @Test
    void refusesNamesThatDoNotMatchTheValues() {
        assertThatThrownBy(() -> Required.nonNull("a, b", "x", 1, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected: 3 names");
    }
}
