package dev.statekit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules StateKit's main code keeps, checked on the compiled classes of statekit-api,
 * statekit-engine and statekit-aws (this module's test class path holds all three).
 *
 * <p>A package owns the packages named {@code internal} or {@code spi} below it: they form one
 * slice and may know each other. Between slices there are no cycles. A subsystem (the first package
 * below {@code dev.statekit}: function, runtime, stream, protocol, ...) keeps its {@code internal}
 * packages to itself: the two stream engines share the operator core in {@code stream.internal},
 * but nothing outside {@code stream} sees it. The protobuf-generated packages ({@code *.wire},
 * {@code *.data}) belong to the package that generates them.
 */
@AnalyzeClasses(
    packages = "dev.statekit",
    importOptions = {ImportOption.DoNotIncludeTests.class, NoTestJars.class})
class ArchitectureTest {
  /** Packages an application's function code and its unit tests use: statekit-api. */
  static final String[] FUNCTION_API = {
    "dev.statekit", "dev.statekit.function..", "dev.statekit.types..", "dev.statekit.testing.."
  };

  /** The slice that owns {@code pkg}: itself, or the package above its internal or spi part. */
  static String owner(String pkg) {
    for (String part : new String[] {".internal", ".spi", ".wire", ".data"}) {
      int at = pkg.indexOf(part + ".");
      if (at < 0 && pkg.endsWith(part)) {
        at = pkg.length() - part.length();
      }
      if (at >= 0) {
        pkg = pkg.substring(0, at);
      }
    }
    return pkg;
  }

  /** The subsystem {@code pkg} is part of: {@code dev.statekit.stream.lambda} is stream's. */
  static String subsystem(String pkg) {
    int next = pkg.indexOf('.', "dev.statekit.".length());
    return next < 0 ? pkg : pkg.substring(0, next);
  }

  static boolean isInternal(String pkg) {
    return pkg.contains(".internal");
  }

  static final SliceAssignment OWNERS =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          String pkg = javaClass.getPackageName();
          return pkg.startsWith("dev.statekit")
              ? SliceIdentifier.of(owner(pkg))
              : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
          return "packages with their own internal and spi packages";
        }
      };

  @ArchTest
  static final ArchRule noCyclesBetweenPackages =
      slices().assignedFrom(OWNERS).should().beFreeOfCycles();

  @ArchTest
  static final ArchRule noSubsystemReachesIntoAnothersInternals =
      classes()
          .that()
          .resideInAPackage("dev.statekit..")
          .should(
              new ArchCondition<JavaClass>("use only their own subsystem's internal packages") {
                @Override
                public void check(JavaClass origin, ConditionEvents events) {
                  String mine = subsystem(origin.getPackageName());
                  for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    String target = d.getTargetClass().getPackageName();
                    if (target.startsWith("dev.statekit")
                        && isInternal(target)
                        && !target.startsWith(mine + ".")) {
                      events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                  }
                }
              });

  @ArchTest
  static final ArchRule functionApiNeedsNoEngineAwsOrGeneratedCode =
      noClasses()
          .that()
          .resideInAnyPackage(FUNCTION_API)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "software.amazon..",
              "com.amazonaws..",
              "dev.statekit.protocol..",
              "dev.statekit.invocation..",
              "dev.statekit.runtime..",
              "dev.statekit.bus..",
              "dev.statekit.event..",
              "dev.statekit.stream..",
              "dev.statekit.entry..",
              "dev.statekit.egress..",
              "dev.statekit.http..",
              "dev.statekit.json..",
              "dev.statekit.concurrent..",
              "dev.statekit.aws..");

  @ArchTest
  static final ArchRule noLambdaTypesOutsideTheHandlers =
      noClasses()
          .that()
          .resideInAPackage("dev.statekit..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.amazonaws.services.lambda..");

  @ArchTest
  static final ArchRule entryPointKnowsNoEngine =
      noClasses()
          .that()
          .resideInAPackage("dev.statekit.entry..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "dev.statekit.runtime..", "dev.statekit.stream..", "dev.statekit.invocation..");

  @ArchTest
  static final ArchRule enginesKnowNoEntryPoint =
      noClasses()
          .that()
          .resideInAnyPackage("dev.statekit.runtime..", "dev.statekit.stream..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.statekit.entry..");

  /** The engine's only AWS types: DynamoDB's item model, which change records carry. */
  @ArchTest
  static final ArchRule engineUsesOnlyDynamoDbsItemModel =
      noClasses()
          .that(inArtifact("statekit-engine", "engine"))
          .should()
          .dependOnClassesThat(
              new DescribedPredicate<JavaClass>("AWS SDK types beyond DynamoDB's item model") {
                @Override
                public boolean test(JavaClass target) {
                  String name = target.getName();
                  return name.startsWith("software.amazon.")
                      && !name.startsWith("software.amazon.awssdk.services.dynamodb.model.")
                      && !name.equals("software.amazon.awssdk.core.SdkBytes")
                      && !name.startsWith("software.amazon.awssdk.core.BytesWrapper");
                }
              });

  @ArchTest
  static final ArchRule publicApiExposesNoInternalTypes =
      classes()
          .that()
          .resideInAPackage("dev.statekit..")
          .and(
              new DescribedPredicate<JavaClass>("are public API") {
                @Override
                public boolean test(JavaClass c) {
                  return !isInternal(c.getPackageName())
                      && c.getModifiers().contains(JavaModifier.PUBLIC);
                }
              })
          .should(
              new ArchCondition<JavaClass>("expose no internal type in a public signature") {
                @Override
                public void check(JavaClass c, ConditionEvents events) {
                  for (JavaCodeUnit unit : c.getCodeUnits()) {
                    if (!unit.getModifiers().contains(JavaModifier.PUBLIC)) {
                      continue;
                    }
                    List<JavaClass> types = new ArrayList<>(unit.getRawParameterTypes());
                    types.add(unit.getRawReturnType());
                    for (JavaClass t : types) {
                      report(events, c, unit.getFullName(), t);
                    }
                  }
                  for (JavaField f : c.getFields()) {
                    if (f.getModifiers().contains(JavaModifier.PUBLIC)) {
                      report(events, c, f.getFullName(), f.getRawType());
                    }
                  }
                  c.getRawSuperclass().ifPresent(s -> report(events, c, "superclass", s));
                  for (JavaClass i : c.getRawInterfaces()) {
                    report(events, c, "interface", i);
                  }
                }

                private void report(
                    ConditionEvents events, JavaClass c, String where, JavaClass t) {
                  JavaClass base = t.isArray() ? t.getBaseComponentType() : t;
                  if (isInternal(base.getPackageName())
                      && base.getPackageName().startsWith("dev.statekit")) {
                    events.add(
                        SimpleConditionEvent.violated(
                            c, where + " exposes the internal type " + base.getName()));
                  }
                }
              });

  static DescribedPredicate<JavaClass> inArtifact(String jarName, String moduleDirectory) {
    return new DescribedPredicate<JavaClass>("are in " + jarName) {
      @Override
      public boolean test(JavaClass c) {
        return c.getSource()
            .map(s -> s.getUri().toString())
            .map(
                uri ->
                    uri.contains("/" + jarName + "-")
                        || uri.contains("/" + moduleDirectory + "/target/classes/"))
            .orElse(false);
      }
    };
  }
}
