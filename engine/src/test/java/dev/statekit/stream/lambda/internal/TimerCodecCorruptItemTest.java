package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.statekit.stream.lambda.TimerItem;
import dev.statekit.stream.serde.Serde;
import dev.statekit.stream.serde.Serdes;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * A corrupt timer item (a key length that is negative or past the item's end) is reported by {@link
 * TimerCodec#split} as "Timer item <id> is corrupt", whichever order the item holds its windows in:
 * an item an earlier version wrote (windows in the order opened) is split by decoding it, and that
 * path must report the same corruption the same way, not as another exception or an Error.
 */
class TimerCodecCorruptItemTest {
  @SuppressWarnings("unchecked")
  private static final Serde<Object> KEYS = (Serde<Object>) (Serde<?>) Serdes.string();

  private final TimerCodec codec = new TimerCodec(KEYS);

  /** Windows as an earlier version wrote them, then a key length and nothing more. */
  private static TimerItem item(long[][] windows, int badLength) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (long[] window : windows) {
      byte[] key = KEYS.encode("card-" + window[1]);
      out.writeInt(key.length);
      out.write(key);
      out.writeLong(window[0]);
      out.writeLong(window[1]);
    }
    out.writeInt(badLength);
    out.write(new byte[24]);
    return new TimerItem(TimerItem.timePrefix(999) + "#s#f", 999, 2_999, bytes.toByteArray());
  }

  private static final long[][] IN_ORDER_OF_END = {{0, 1_000}, {0, 3_000}};
  private static final long[][] IN_ORDER_OPENED = {{0, 3_000}, {0, 1_000}};

  @Test
  void aNegativeKeyLengthIsReportedAsCorruptInAnItemInOrderOfEnd() throws Exception {
    assertCorrupt(item(IN_ORDER_OF_END, -5), 999);
  }

  @Test
  void aNegativeKeyLengthIsReportedAsCorruptInAnItemAnEarlierVersionWrote() throws Exception {
    assertCorrupt(item(IN_ORDER_OPENED, -5), 999);
  }

  @Test
  void aKeyLengthPastTheItemIsReportedAsCorruptInAnItemAnEarlierVersionWrote() throws Exception {
    assertCorrupt(item(IN_ORDER_OPENED, Integer.MAX_VALUE), 999);
  }

  private void assertCorrupt(TimerItem item, long upTo) {
    Throwable thrown = null;
    try {
      codec.split(item, upTo);
    } catch (Throwable t) { // an Error included: that is the point
      thrown = t;
    }
    if (thrown == null) {
      fail("split returned for a corrupt item");
    }
    if (!(thrown instanceof UncheckedIOException)) {
      fail("split reported a corrupt item as " + thrown, thrown);
    }
    assertEquals("Timer item " + item.id() + " is corrupt", thrown.getMessage());
  }
}
