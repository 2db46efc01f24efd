package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Configs;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code general_settings.virtual_key_copy_ttl_hours}: how long a virtual key's Redis copy
 * lives; 6 hours unless set, 0 for no copies, and only whole hours. check-config prints it.
 */
class KeyCopyLifetimeSettingTest {

    @Test
    void defaultsToSixHours() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("general_settings: {}")).general().store().keyCopyLifetime())
                .isEqualTo(Duration.ofHours(6));
    }

    @Test
    void takesWholeHoursAndZero() throws ConfigException {
        assertThat(Configs.parse(Configs.withSection("general_settings: {virtual_key_copy_ttl_hours: 24}")).general()
                .store().keyCopyLifetime()).isEqualTo(Duration.ofHours(24));
        assertThat(Configs.parse(Configs.withSection("general_settings: {virtual_key_copy_ttl_hours: 0}")).general()
                .store().keyCopyLifetime()).isZero();
    }

    @Test
    void refusesNegativeFractionsAndText() {
        for (String value : new String[] {"-1", "1.5", "long"}) {
            assertThat(Configs.problems(Configs.withSection("general_settings: {virtual_key_copy_ttl_hours: " + value + "}")))
                    .as(value).anySatisfy(p -> assertThat(p).contains("general_settings.virtual_key_copy_ttl_hours"));
        }
    }

    @Test
    void checkConfigPrintsIt() throws ConfigException {
        assertThat(ConfigPrinter.print(Configs.parse(Configs.withSection("general_settings: {virtual_key_copy_ttl_hours: 0}"))))
                .contains("virtual_key_copy_ttl_hours: 0");
    }
}
