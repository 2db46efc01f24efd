package dev.sluice.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package boundaries the tree is meant to show, checked on the compiled main classes.
 * The router decides; it knows nothing of HTTP, entry APIs, vendors or the call path that
 * feeds it. Entry APIs and vendors meet only in the internal model. Only the command line
 * starts the composition root.
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
    void theRouterKnowsNothingOfHttpEntryApisVendorsOrTheCallPath() {
        check(noClasses().that().resideInAPackage("dev.sluice.router..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.server..", "dev.sluice.http..", "dev.sluice.call..",
                        "dev.sluice.ingress..", "dev.sluice.provider..", "dev.sluice.boot..", "dev.sluice.admin..",
                        "dev.sluice.access..", "dev.sluice.store..", "dev.sluice.spend..", "dev.sluice.upstream..",
                        "dev.sluice.responses..", "io.vertx.core.http.."));
    }

    @Test
    void providersKnowNothingOfTheRouterTheCallPathOrEntryApis() {
        check(noClasses().that().resideInAPackage("dev.sluice.provider..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.call..",
                        "dev.sluice.server..", "dev.sluice.http..", "dev.sluice.ingress..", "dev.sluice.boot..",
                        "dev.sluice.access..", "dev.sluice.spend.."));
    }

    @Test
    void entryApisKnowNothingOfTheRouterProvidersOrTheCallPath() {
        check(noClasses().that().resideInAPackage("dev.sluice.ingress..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.provider..",
                        "dev.sluice.call..", "dev.sluice.server..", "dev.sluice.boot..", "dev.sluice.upstream.."));
    }

    @Test
    void theInternalModelStandsOnItsOwn() {
        check(noClasses().that().resideInAPackage("dev.sluice.llm..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.provider..",
                        "dev.sluice.call..", "dev.sluice.server..", "dev.sluice.http..", "dev.sluice.ingress..",
                        "dev.sluice.boot..", "dev.sluice.config..", "dev.sluice.upstream..", "io.vertx.."));
    }

    @Test
    void theFailureTaxonomyKnowsNothingOfWhatReadsIt() {
        check(noClasses().that().resideInAPackage("dev.sluice.failure..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.router..", "dev.sluice.call..",
                        "dev.sluice.server..", "dev.sluice.provider..", "dev.sluice.boot.."));
    }

    @Test
    void theHttpEdgeAndTheCallPathDoNotReachBackIntoTheCompositionRoot() {
        check(noClasses().that().resideInAnyPackage("dev.sluice.server..", "dev.sluice.call..", "dev.sluice.http..",
                        "dev.sluice.admin..")
                .should().dependOnClassesThat().resideInAPackage("dev.sluice.boot.."));
    }

    @Test
    void theCallPathDoesNotReachIntoTheRoutesOrTheAdminApis() {
        check(noClasses().that().resideInAPackage("dev.sluice.call..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.server..", "dev.sluice.admin.."));
    }

    @Test
    void onlyTheCommandLineStartsTheCompositionRoot() {
        check(noClasses().that().resideOutsideOfPackages("dev.sluice.boot..", "dev.sluice.cli..", "dev.sluice.demo..")
                .should().dependOnClassesThat().resideInAPackage("dev.sluice.boot.."));
    }

    @Test
    void theSharedHttpPiecesKnowNothingOfWhatUsesThem() {
        check(noClasses().that().resideInAPackage("dev.sluice.http..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.server..", "dev.sluice.call..",
                        "dev.sluice.admin..", "dev.sluice.router.."));
    }

    @Test
    void theResponseStoreKnowsTheStoreButNothingOfWhatCallsIt() {
        check(noClasses().that().resideInAPackage("dev.sluice.responses..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sluice.server..", "dev.sluice.call..",
                        "dev.sluice.router..", "dev.sluice.http..", "dev.sluice.ingress..", "dev.sluice.provider..",
                        "dev.sluice.admin..", "dev.sluice.access..", "dev.sluice.boot..", "io.vertx.core.http.."));
    }

    private static void check(ArchRule rule) {
        rule.check(classes);
    }
}
