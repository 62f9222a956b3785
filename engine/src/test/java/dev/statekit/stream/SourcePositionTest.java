package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SourcePositionTest {
  @Test
  void decimalOffsetsCompareAsNumbersOfAnyLength() {
    List<String[]> cases =
        List.of(
            new String[] {"9", "10"},
            new String[] {"0", "000"},
            new String[] {"007", "7"},
            new String[] {"0010", "9"},
            new String[] {"49590338271490256608559692538361571095921575989136588898", "4959"},
            new String[] {"100000000000", "099999999999"},
            new String[] {"0", "1"});
    for (String[] pair : cases) {
      assertEquals(reference(pair[0], pair[1]), sign(pair[0], pair[1]), String.join(" vs ", pair));
      assertEquals(reference(pair[1], pair[0]), sign(pair[1], pair[0]), String.join(" vs ", pair));
    }
  }

  @Test
  void otherOffsetsCompareAsStrings() {
    assertEquals(Integer.signum("a9".compareTo("a10")), sign("a9", "a10"));
    assertEquals(Integer.signum("".compareTo("0")), sign("", "0"));
    assertEquals(Integer.signum("10".compareTo("9x")), sign("10", "9x"));
  }

  @Test
  void agreesWithNumbersOnRandomOffsets() {
    Random random = new Random(16);
    for (int i = 0; i < 100_000; i++) {
      String a = offset(random);
      String b = random.nextInt(10) == 0 ? a : offset(random);
      assertEquals(reference(a, b), sign(a, b), a + " vs " + b);
    }
  }

  private static String offset(Random random) {
    StringBuilder s = new StringBuilder();
    for (int zeros = random.nextInt(4) == 0 ? random.nextInt(3) : 0; zeros > 0; zeros--) {
      s.append('0');
    }
    int digits = 1 + random.nextInt(random.nextBoolean() ? 3 : 60);
    for (int d = 0; d < digits; d++) {
      s.append((char) ('0' + random.nextInt(10)));
    }
    return s.toString();
  }

  private static int sign(String a, String b) {
    return Integer.signum(SourcePosition.compareOffsets(a, b));
  }

  private static int reference(String a, String b) {
    return new BigInteger(a).compareTo(new BigInteger(b));
  }
}
