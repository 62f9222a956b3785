package dev.statekit.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statekit.function.Address;
import dev.statekit.types.TypeName;
import org.junit.jupiter.api.Test;

class QueueIdsTest {
  @Test
  void anAddressSqsTakesIsItsOwnGroup() {
    assertEquals(
        "example/greeter/ada",
        QueueIds.groupId(Address.of(TypeName.of("example", "greeter"), "ada")));
  }

  @Test
  void otherTextsAreHashedToAStableFittingId() {
    String spaced = QueueIds.fit("has a space");
    String long1 = QueueIds.fit("x".repeat(200));

    assertTrue(spaced.startsWith("h-") && spaced.length() <= 128, spaced);
    assertEquals(spaced, QueueIds.fit("has a space"));
    assertTrue(long1.length() <= 128);
    assertNotEquals(QueueIds.fit("é"), QueueIds.fit("e"));
  }

  // Bodies carry unpaired surrogates exactly, so texts that differ only in one name two things
  // (two addresses): their hashes (dedup ids, groups) must differ, and every other text's hash
  // stays the SHA-256 of its UTF-8 bytes, as before.
  @Test
  void textsThatDifferOnlyInAnUnpairedSurrogateHashApart() throws Exception {
    assertNotEquals(QueueIds.sha256("a\uD83D"), QueueIds.sha256("a\uD83E"));
    assertNotEquals(QueueIds.sha256("a\uD83D"), QueueIds.sha256("a?"));
    assertNotEquals(QueueIds.sha256("a\uDE00\uD83D"), QueueIds.sha256("a\uD83D\uDE00"));
    assertNotEquals(QueueIds.fit("x/y/a\uD83D"), QueueIds.fit("x/y/a\uD83E"));
    for (String text : new String[] {"", "ada", "\u00e9\uD83D\uDE00\uFFFF", "a?"}) {
      byte[] digest =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      assertEquals(
          java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(digest),
          QueueIds.sha256(text));
    }
  }
}
