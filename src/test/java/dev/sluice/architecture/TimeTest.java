package dev.sluice.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Time is injected: only {@code dev.sluice.time} reads the system's clock or ticker, and
 * everything else is handed a {@code TimeSource} (or the clock or ticker in it), so a test can
 * move time instead of waiting for it. A method reference ({@code System::nanoTime}) counts as
 * a read, as a call does.
 */
class TimeTest {
    /** The readers of the system's time, by declaring class and method name. */
    private static final Set<String> SYSTEM_TIME = Set.of(
            System.class.getName() + ".nanoTime",
            System.class.getName() + ".currentTimeMillis",
            Clock.class.getName() + ".systemUTC",
            Clock.class.getName() + ".systemDefaultZone",
            Instant.class.getName() + ".now",
            LocalDate.class.getName() + ".now",
            LocalDateTime.class.getName() + ".now",
            OffsetDateTime.class.getName() + ".now",
            ZonedDateTime.class.getName() + ".now");

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.sluice");
    }

    @Test
    void onlyTheTimePackageReadsTheSystemsTime() {
        noClasses().that().resideOutsideOfPackage("dev.sluice.time..")
                .should().accessTargetWhere(readsTheSystemsTime())
                .because("time comes from the injected TimeSource, so tests move it instead of waiting")
                .check(classes);
    }

    /**
     * {@code Instant.now()} and its kind with no argument read the system's clock; with a
     * {@code Clock} they read the one given, which is what the rule asks for.
     */
    private static DescribedPredicate<JavaAccess<?>> readsTheSystemsTime() {
        return DescribedPredicate.describe("reads the system's clock or ticker", access -> {
            AccessTarget target = access.getTarget();
            String name = target.getOwner().getName() + "." + target.getName();
            return SYSTEM_TIME.contains(name) && !(target instanceof AccessTarget.CodeUnitAccessTarget unit
                    && unit.getRawParameterTypes().size() == 1 && unit.getRawParameterTypes().get(0).isEquivalentTo(Clock.class));
        });
    }
}
