package dev.statekit.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * Leaves out the classes of test-jars ({@code *-tests.jar}), which a full build puts on the class
 * path where a test build puts {@code test-classes} directories: the rules are about main code.
 */
public final class NoTestJars implements ImportOption {
  @Override
  public boolean includes(Location location) {
    return !location.contains("-tests.jar");
  }
}
