package dev.sluice.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The measures the main code keeps: no source file over 400 lines, no method or
 * constructor that takes 7 or more parameters (a record's canonical constructor is its
 * fields, not a parameter list, and is not counted), and no record of more than 12
 * components: a wider value is split into the smaller values it is made of.
 */
class MeasuresTest {
    static final int MAX_FILE_LINES = 400;
    static final int MAX_PARAMETERS = 6;
    static final int MAX_RECORD_COMPONENTS = 12;

    @Test
    void noMainSourceFileIsOver400Lines() throws IOException {
        List<String> long_ = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                long lines = Files.readAllLines(file).size();
                if (lines > MAX_FILE_LINES) {
                    long_.add(file + ": " + lines + " lines");
                }
            }
        }
        assertThat(long_).as("files over %d lines", MAX_FILE_LINES).isEmpty();
    }

    @Test
    void noMethodOrConstructorTakesSevenOrMoreParameters() {
        List<String> wide = new ArrayList<>();
        for (JavaClass type : mainClasses()) {
            for (JavaCodeUnit unit : type.getCodeUnits()) {
                if (unit.getRawParameterTypes().size() > MAX_PARAMETERS && counts(type, unit)) {
                    wide.add(unit.getFullName());
                }
            }
        }
        assertThat(wide).as("methods and constructors with more than %d parameters", MAX_PARAMETERS).isEmpty();
    }

    @Test
    void noRecordHasMoreThanTwelveComponents() {
        List<String> wide = new ArrayList<>();
        for (JavaClass type : mainClasses()) {
            if (type.isRecord()) {
                long components = type.getFields().stream()
                        .filter(f -> !f.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC))
                        .count();
                if (components > MAX_RECORD_COMPONENTS) {
                    wide.add(type.getName() + ": " + components + " components");
                }
            }
        }
        assertThat(wide).as("records with more than %d components", MAX_RECORD_COMPONENTS).isEmpty();
    }

    private static JavaClasses mainClasses() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.sluice");
    }

    /** Compiler-made code (lambdas, accessors) and a record's canonical constructor do not count. */
    private static boolean counts(JavaClass type, JavaCodeUnit unit) {
        if (unit.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.SYNTHETIC)
                || unit.getName().startsWith("lambda$")) {
            return false;
        }
        if (type.isEnum() && unit instanceof JavaConstructor constructor) {
            // An enum's constructor takes the constant's name and ordinal before its own parameters.
            return constructor.getRawParameterTypes().size() - 2 > MAX_PARAMETERS;
        }
        if (type.isRecord() && unit instanceof JavaConstructor constructor) {
            return constructor.getRawParameterTypes().size() != type.getAllFields().stream()
                    .filter(f -> !f.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC)).count();
        }
        return true;
    }
}
