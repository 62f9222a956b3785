package dev.statekit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The rules StateKit's main code keeps, checked on the compiled classes of every artifact on the
 * test class path. A package and its own {@code internal} packages form one slice (they may know
 * each other); between slices there are no cycles, and no slice reaches into another's internals.
 */
@AnalyzeClasses(packages = "dev.statekit", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** A package and the {@code internal} packages below it: {@code a.b.internal.c} is slice a.b. */
  static final SliceAssignment OWNER =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          String pkg = javaClass.getPackageName();
          if (!pkg.startsWith("dev.statekit")) {
            return SliceIdentifier.ignore();
          }
          if (isGenerated(pkg)) {
            return SliceIdentifier.ignore();
          }
          int internal = pkg.indexOf(".internal");
          return SliceIdentifier.of(internal < 0 ? pkg : pkg.substring(0, internal));
        }

        @Override
        public String getDescription() {
          return "packages with their own internal packages";
        }
      };

  static boolean isGenerated(String pkg) {
    return pkg.endsWith(".wire") || pkg.endsWith(".data");
  }

  @ArchTest
  static final ArchRule noCyclesBetweenPackages =
      slices().assignedFrom(OWNER).should().beFreeOfCycles();

  @ArchTest
  static final ArchRule runtimeInternalsStayInTheRuntime =
      noClasses()
          .that()
          .resideOutsideOfPackages("dev.statekit.runtime..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.statekit.runtime.internal..");

  @ArchTest
  static final ArchRule functionApiFreeOfAwsProtobufAndEngine =
      noClasses()
          .that()
          .resideInAnyPackage(
              "dev.statekit.function..", "dev.statekit.types..", "dev.statekit.testing..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "software.amazon..",
              "com.amazonaws..",
              "dev.statekit.protocol..",
              "dev.statekit.runtime..",
              "dev.statekit.stream..",
              "dev.statekit.entry..",
              "dev.statekit.egress..",
              "dev.statekit.aws..");

  @ArchTest
  static final ArchRule entryDoesNotKnowTheRuntime =
      noClasses()
          .that()
          .resideInAPackage("dev.statekit.entry..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.statekit.runtime..");
}
