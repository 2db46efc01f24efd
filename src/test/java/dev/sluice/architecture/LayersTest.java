package dev.sluice.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package boundaries the tree is meant to show, checked on the compiled main classes
 * (docs/architecture.md draws them). The top-level packages form no cycle and stand in the
 * order {@link #LAYERS} lists, so each can be read, changed and tested knowing only the ones
 * below it. The router decides; it knows
 * nothing of HTTP, vendors or the call path that feeds it. Entry codecs and provider
 * adapters meet only in the internal model. Only the command line starts the composition
 * root.
 */
class LayersTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.sluice");
    }

    @Test
    void theTopLevelPackagesFormNoCycle() {
        check(slices().matching("dev.sluice.(*)..").should().beFreeOfCycles());
    }

    /** The top-level packages from the top down, as the README and docs/architecture.md list them. */
    static final List<String> LAYERS = List.of("boot", "edge", "admin", "state", "call", "ops", "vendors", "accounts",
            "router", "store", "http", "catalog", "config", "failure", "model", "net", "wire", "time");

    @Test
    void eachTopLevelPackageUsesOnlyThoseListedBelowIt() {
        for (int i = 1; i < LAYERS.size(); i++) {
            String[] above = LAYERS.subList(0, i).stream().map(p -> "dev.sluice." + p + "..").toArray(String[]::new);
            check(noClasses().that().resideInAPackage("dev.sluice." + LAYERS.get(i) + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(above));
        }
    }

    /**
     * The same order in the sources, where a javadoc link or a name written out in full counts
     * though the compiled classes never show it: a reader follows those arrows too.
     */
    @Test
    void noMainSourceNamesAPackageListedAboveIt() throws IOException {
        Pattern named = Pattern.compile("\\bdev\\.sluice\\.(\\w+)\\.[\\w.]*[A-Z]\\w*");
        Path root = Path.of("src/main/java/dev/sluice");
        List<String> upward = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && f.getNameCount() > root.getNameCount() + 1).toList()) {
                int own = LAYERS.indexOf(root.relativize(file).getName(0).toString());
                Matcher name = named.matcher(Files.readString(file));
                while (name.find()) {
                    int other = LAYERS.indexOf(name.group(1));
                    if (own >= 0 && other >= 0 && other < own) {
                        upward.add(root.relativize(file) + " names " + name.group());
                    }
                }
            }
        }
        assertThat(upward).as("names of packages listed above their own").isEmpty();
    }

    @Test
    void everyTopLevelPackageIsALayer() {
        check(classes().that().resideOutsideOfPackage("dev.sluice")
                .should().resideInAnyPackage(LAYERS.stream().map(p -> "dev.sluice." + p + "..").toArray(String[]::new)));
    }

    @Test
    void theRouterKnowsNothingOfHttpVendorsAccountsOrTheCallPath() {
        check(noClasses().that().resideInAPackage("dev.sluice.router..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.edge..", "dev.sluice.http..",
                        "dev.sluice.call..", "dev.sluice.vendors..", "dev.sluice.boot..", "dev.sluice.admin..",
                        "dev.sluice.accounts..", "dev.sluice.store..", "dev.sluice.state..", "io.vertx.core.http.."));
    }

    @Test
    void providerAdaptersKnowNothingOfTheRouterTheCallPathOrEntryCodecs() {
        check(noClasses().that().resideInAnyPackage("dev.sluice.vendors.*.provider..", "dev.sluice.vendors",
                        "dev.sluice.vendors.stream..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.call..",
                        "dev.sluice.edge..", "dev.sluice.http..", "dev.sluice.vendors.entry..",
                        "dev.sluice.vendors.*.entry..", "dev.sluice.vendors.*.responses.entry..", "dev.sluice.boot..",
                        "dev.sluice.accounts.."));
    }

    @Test
    void entryCodecsKnowNothingOfTheRouterProviderAdaptersOrTheCallPath() {
        check(noClasses().that().resideInAnyPackage("dev.sluice.vendors.entry..", "dev.sluice.vendors.*.entry..",
                        "dev.sluice.vendors.*.responses.entry..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.vendors",
                        "dev.sluice.vendors.stream..", "dev.sluice.vendors.*.provider..", "dev.sluice.vendors.upstream..",
                        "dev.sluice.call..", "dev.sluice.edge..", "dev.sluice.boot.."));
    }

    @Test
    void theInternalModelStandsOnItsOwn() {
        check(noClasses().that().resideInAPackage("dev.sluice.model..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.vendors..",
                        "dev.sluice.call..", "dev.sluice.edge..", "dev.sluice.http..", "dev.sluice.boot..",
                        "dev.sluice.config..", "io.vertx.."));
    }

    @Test
    void theFailureTaxonomyKnowsNothingOfWhatReadsIt() {
        check(noClasses().that().resideInAPackage("dev.sluice.failure..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.call..",
                        "dev.sluice.edge..", "dev.sluice.vendors..", "dev.sluice.boot.."));
    }

    @Test
    void theHttpEdgeAndTheCallPathDoNotReachBackIntoTheCompositionRoot() {
        check(noClasses().that().resideInAnyPackage("dev.sluice.edge..", "dev.sluice.call..", "dev.sluice.http..",
                        "dev.sluice.admin..")
                .should().dependOnClassesThat().resideInAPackage("dev.sluice.boot.."));
    }

    @Test
    void theCallPathDoesNotReachIntoTheRoutesOrTheAdminApis() {
        check(noClasses().that().resideInAPackage("dev.sluice.call..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.edge..", "dev.sluice.admin.."));
    }

    @Test
    void onlyTheCommandLineStartsTheCompositionRoot() {
        check(noClasses().that().resideOutsideOfPackages("dev.sluice.boot..")
                .should().dependOnClassesThat().resideInAPackage("dev.sluice.boot.."));
    }

    @Test
    void theSharedHttpPiecesKnowNothingOfWhatUsesThem() {
        check(noClasses().that().resideInAPackage("dev.sluice.http..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.edge..", "dev.sluice.call..",
                        "dev.sluice.admin..", "dev.sluice.router..", "dev.sluice.accounts..", "dev.sluice.vendors.."));
    }

    @Test
    void theResponseStoreKnowsTheStoreButNothingOfWhatCallsIt() {
        check(noClasses().that().resideInAPackage("dev.sluice.vendors.openai.responses.store..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.edge..", "dev.sluice.call..",
                        "dev.sluice.router..", "dev.sluice.http..", "dev.sluice.vendors.openai.responses.entry..",
                        "dev.sluice.vendors.*.provider..", "dev.sluice.admin..", "dev.sluice.accounts..",
                        "dev.sluice.boot..", "io.vertx.core.http.."));
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }
}
