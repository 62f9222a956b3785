package dev.statekit.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import picocli.CommandLine;

/**
 * The console in a real browser (headless Chromium): the examples served in memory, the page
 * opened, and what a developer would check there. Screenshots go to {@code
 * target/console-screenshots/} (and to {@code -Dstatekit.screenshots=DIR}, e.g. {@code
 * docs/images}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {
  private static ServeCommand.Running running;
  private static ChromeDriver browser;
  private static WebDriverWait wait;

  @BeforeAll
  static void serveAndOpen() throws Exception {
    CommandLine command = new CommandLine(new ServeCommand());
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.parseArgs("--in-memory", "--port", "0", "--tick", "1", "--retry-after", "0");
    running = ((ServeCommand) command.getCommand()).start();
    browser = Chromium.start();
    wait = new WebDriverWait(browser, Duration.ofSeconds(30));
    browser.get(running.server().url().resolve("console/").toString());
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.quit();
    }
    if (running != null) {
      running.close();
    }
  }

  @Test
  @Order(1)
  void theGreetersAddressShowsSeenTwoAfterTwoGreetings() throws Exception {
    greet("Ada");
    greet("Ada");
    showAddress("example/greeter/Ada");
    wait.until(
        b -> text(By.cssSelector("#address-view tr[data-value='seen'] td.value")).equals("2"));
    // The live list has both, and a click shows an invocation's state before and after.
    wait.until(b -> invocations("example/greeter/Ada", "applied").size() == 2);
    WebElement latest = invocations("example/greeter/Ada", "applied").get(0);
    latest.click();
    WebElement details =
        browser.findElement(
            By.cssSelector(
                "tr.invocation[data-seq='" + latest.getAttribute("data-seq") + "'] + tr.details"));
    String shown = details.getText();
    assertTrue(shown.contains("\"seen\": 2"), shown);
    assertTrue(shown.contains("\"seen\": 1"), "the state before: " + shown);
    assertTrue(shown.contains("Hello Ada! I have seen you 2 times."), "the egress out: " + shown);
    assertTrue(shown.contains("example/audit/all"), "the message sent: " + shown);
    // The graph has the messages seen between the functions.
    wait.until(
        b ->
            !b.findElements(
                    By.cssSelector(
                        "#edges tr.edge[data-from='example/greeter'][data-to='example/audit']"))
                .isEmpty());
    latest.click();
  }

  @Test
  @Order(2)
  void theFraudChecksGraphShowsItsLabelledOperators() {
    for (String label : List.of("parse", "suspicious")) {
      wait.until(
          b ->
              !b.findElements(
                      By.cssSelector(
                          "#pipeline-graphs [data-pipeline='fraud-check'] .operator[data-label='"
                              + label
                              + "']"))
                  .isEmpty());
    }
    shownWhen(
        By.cssSelector("#pipeline-graphs [data-pipeline='fraud-check']"),
        graph -> graph.contains("keyBy") && graph.contains("window"),
        "the fraud check's graph names its keyBy and its window");
  }

  @Test
  @Order(3)
  void thePipelinesSplitsShowTheirPositionAndWatermark() {
    long start =
        java.time.Instant.now()
            .truncatedTo(java.time.temporal.ChronoUnit.HOURS)
            .minus(Duration.ofHours(2))
            .toEpochMilli();
    List<byte[]> records = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      records.add(
          ("{\"id\":\"t"
                  + i
                  + "\",\"card\":\"card-"
                  + (i % 3)
                  + "\",\"amountCents\":"
                  + (500 + i)
                  + ",\"merchant\":\"shop\",\"country\":\"FR\",\"time\":"
                  + (start + i * 30_000L)
                  + "}")
              .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    running.app().feed("fraud-check", records);
    By pipeline = By.cssSelector("#pipelines [data-pipeline='fraud-check']");
    wait.until(
        b ->
            !b.findElements(
                    By.cssSelector("#pipelines [data-pipeline='fraud-check'] tr[data-split]"))
                .isEmpty());
    shownWhen(
        pipeline,
        shown ->
            shown.contains("40 records")
                && shown.contains("shardId-000000000000")
                && shown.contains("0 late"),
        "the fraud check's split shows 40 records, its shard and 0 late");
  }

  @Test
  @Order(4)
  void aPoisonMessageIsADeadLetterWithItsErrorAndOnceFixedAndResentIsApplied() throws Exception {
    Address book = Address.of(dev.statekit.types.TypeName.of("shop", "inventory"), "book");
    running.app().enqueue(book, Envelopes.ofText(book, "shop/restock", "{\"quantity\": 3}", null));
    // A producer's bug: eve's cart is asked to add 0 books, which the cart refuses every time.
    running
        .app()
        .enqueue(
            Address.of(dev.statekit.types.TypeName.of("shop", "cart"), "eve"),
            Envelopes.ofText(
                Address.of(dev.statekit.types.TypeName.of("shop", "cart"), "eve"),
                "shop/add-item",
                "{\"sku\": \"book\", \"quantity\": 0}",
                null));
    By letter = By.cssSelector("#dead-letters .dead-letter[data-target='shop/cart/eve']");
    wait.until(b -> !b.findElements(letter).isEmpty());
    String error = browser.findElement(letter).findElement(By.cssSelector(".error")).getText();
    assertTrue(error.contains("add-item needs a sku and a quantity of at least 1"), error);
    // The page reads the queues and the invocations in parallel: the letter may show a refresh
    // before the attempt that sent it.
    try {
      wait.until(b -> !invocations("shop/cart/eve", "dead_lettered").isEmpty());
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError("the live list shows the last attempt dead-lettered", e);
    }
    screenshot("console-dead-letter.png");

    // The fix: the message corrected in the console (1 book), then resent.
    browser.findElement(letter).findElement(By.cssSelector("button.edit")).click();
    WebElement envelope = browser.findElement(letter).findElement(By.cssSelector("textarea"));
    String fixed = envelope.getAttribute("value").replace("\"quantity\":0", "\"quantity\":1");
    assertTrue(fixed.contains("\"quantity\":1"), fixed);
    envelope.clear();
    envelope.sendKeys(fixed);
    browser.findElement(letter).findElement(By.cssSelector("button.resend")).click();

    try {
      wait.until(b -> !invocations("shop/cart/eve", "applied").isEmpty());
    } catch (org.openqa.selenium.TimeoutException e) {
      screenshot("failed-resend.png");
      throw new AssertionError(
          "The resent message was not applied; the dead letters show: "
              + text(By.id("dead-letters")),
          e);
    }
    wait.until(b -> b.findElements(letter).isEmpty());
    showAddress("shop/cart/eve");
    wait.until(
        b ->
            text(By.cssSelector("#address-view tr[data-value='cart'] td.value"))
                .contains("\"quantity\":1"));
    // The cart reserved the book: the inventory answered, so eve's line is held.
    wait.until(
        b ->
            text(By.cssSelector("#address-view tr[data-value='cart'] td.value"))
                .contains("\"held\":true"));
    shownWhen(
        By.cssSelector("#queues tr[data-queue='dead letters'] td.depth"),
        "0"::equals,
        "the dead-letter queue is empty again");
  }

  @Test
  @Order(5)
  void theOverviewScreenshot() throws Exception {
    showAddress("example/greeter/Ada");
    wait.until(
        b -> text(By.cssSelector("#address-view tr[data-value='seen'] td.value")).equals("2"));
    wait.until(b -> !text(By.cssSelector("#charts [data-metric='applied'] .total")).equals("0"));
    screenshot("console.png");
  }

  private static void greet(String name) {
    Address target = Address.of(dev.statekit.types.TypeName.of("example", "greeter"), name);
    running.app().enqueue(target, Envelopes.ofText(target, "io.statefun.types/string", "hi", null));
  }

  private static void showAddress(String address) {
    WebElement input = browser.findElement(By.id("address-input"));
    input.clear();
    input.sendKeys(address);
    browser.findElement(By.id("address-go")).click();
  }

  private static List<WebElement> invocations(String address, String outcome) {
    return browser.findElements(
        By.cssSelector(
            "#invocations tr.invocation[data-address='"
                + address
                + "'][data-outcome='"
                + outcome
                + "']"));
  }

  /**
   * Waits until the element's text passes the check: a text read while the page redraws is empty,
   * so a single read can fail a test the page passes.
   */
  private static void shownWhen(
      By by, java.util.function.Predicate<String> check, String expected) {
    String[] last = {""};
    try {
      wait.until(b -> check.test(last[0] = text(by)));
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError(expected + "; the page shows: " + last[0], e);
    }
  }

  private static String text(By by) {
    // The page redraws every second: an element found may be replaced before it is read.
    try {
      List<WebElement> found = browser.findElements(by);
      return found.isEmpty() ? "" : found.get(0).getText().trim();
    } catch (org.openqa.selenium.StaleElementReferenceException redrawn) {
      return "";
    }
  }

  private static void screenshot(String name) throws IOException {
    Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
    Path dir = Path.of("target", "console-screenshots");
    Files.createDirectories(dir);
    Files.copy(shot, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    String docs = System.getProperty("statekit.screenshots");
    if (docs != null && !docs.isBlank()) {
      Path to = Path.of(docs);
      Files.createDirectories(to);
      Files.copy(shot, to.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
    assertTrue(Files.size(dir.resolve(name)) > 0, "screenshot " + name);
  }
}
