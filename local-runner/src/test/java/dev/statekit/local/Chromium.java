package dev.statekit.local;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for the console's browser tests: Debian's {@code chromium} and {@code
 * chromedriver} (or where {@code STATEKIT_CHROMIUM} and {@code STATEKIT_CHROMEDRIVER} point), never
 * a downloaded driver. A missing browser fails the test, saying how to install it.
 */
final class Chromium {
  private Chromium() {}

  static ChromeDriver start() {
    Path browser = find("STATEKIT_CHROMIUM", "/usr/bin/chromium", "/usr/bin/chromium-browser");
    Path driver =
        find("STATEKIT_CHROMEDRIVER", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1900",
        "--hide-scrollbars");
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(driver.toFile())
            .usingAnyFreePort()
            .withTimeout(Duration.ofSeconds(60))
            .build();
    return new ChromeDriver(service, options);
  }

  private static Path find(String variable, String... candidates) {
    String named = System.getenv(variable);
    if (named != null && !named.isBlank()) {
      Path path = Path.of(named);
      if (!Files.isExecutable(path)) {
        throw new AssertionError(variable + " names " + named + ", which is not an executable");
      }
      return path;
    }
    for (String candidate : candidates) {
      if (new File(candidate).canExecute()) {
        return Path.of(candidate);
      }
    }
    throw new AssertionError(
        "The console's browser tests need headless Chromium and its driver, and found neither of "
            + String.join(", ", candidates)
            + ". Install them (Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y"
            + " chromium chromium-driver), or point "
            + variable
            + " at the executable.");
  }
}
