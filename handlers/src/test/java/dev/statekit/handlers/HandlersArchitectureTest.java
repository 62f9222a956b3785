package dev.statekit.handlers;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.statekit.architecture.NoTestJars;

/**
 * The Lambda handlers stay thin: they translate Lambda's types and hand the bytes to the engine's
 * public entry points, reaching into no engine internals; and no StateKit code outside them (and
 * the example handlers) sees a Lambda type.
 */
@AnalyzeClasses(
    packages = "dev.statekit",
    importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class HandlersArchitectureTest {
  @ArchTest
  static final ArchRule handlersUseOnlyPublicApi =
      noClasses()
          .that()
          .resideInAPackage("dev.statekit.handlers..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "dev.statekit..internal..",
              "dev.statekit..spi..",
              "dev.statekit.invocation..",
              "dev.statekit.protocol.internal.wire..",
              "dev.statekit.runtime.internal.data..");

  @ArchTest
  static final ArchRule lambdaTypesOnlyInHandlers =
      noClasses()
          .that()
          .resideInAPackage("dev.statekit..")
          .and()
          .resideOutsideOfPackages("dev.statekit.handlers..", "dev.statekit.examples..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.amazonaws.services.lambda..");
}
