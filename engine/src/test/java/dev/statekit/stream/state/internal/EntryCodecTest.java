package dev.statekit.stream.state.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.statekit.stream.TimeWindow;
import dev.statekit.stream.internal.WindowSerdes;
import dev.statekit.stream.serde.Serdes;
import dev.statekit.stream.state.StateSpec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bytes of a key's states are what earlier versions wrote and read (items already in users'
 * tables): for each state its name as {@link DataOutputStream#writeUTF} writes it, its namespace
 * and its value.
 */
class EntryCodecTest {
  private final StateSpec<?> count = StateSpec.value("window-accumulator", Serdes.longs());
  private final StateSpec<?> note = StateSpec.value("n\u00e9", Serdes.string());
  private final EntryCodec codec = new EntryCodec(List.of(count, note), WindowSerdes.WINDOW);

  @Test
  void writesEachStateAfterItsNameAsWriteUtfDoes() throws Exception {
    KeyEntry entry = new KeyEntry("card", 2);
    entry.slots[1] = "top";
    TimeWindow window = new TimeWindow(0, 60_000);
    entry.space(window, true)[0] = 7L;

    byte[] bytes = codec.encode(entry);

    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(expected);
    out.writeUTF("n\u00e9");
    out.writeInt(-1);
    byte[] top = Serdes.string().encode("top");
    out.writeInt(top.length);
    out.write(top);
    out.writeUTF("window-accumulator");
    byte[] namespace = WindowSerdes.WINDOW.encode(window);
    out.writeInt(namespace.length);
    out.write(namespace);
    byte[] seven = Serdes.longs().encode(7L);
    out.writeInt(seven.length);
    out.write(seven);
    assertArrayEquals(expected.toByteArray(), bytes);

    KeyEntry decoded = new KeyEntry("card", 2);
    codec.decode(bytes, decoded);
    assertEquals("top", decoded.slots[1]);
    assertEquals(7L, decoded.space(window, false)[0]);
    assertEquals(new ArrayList<>(List.of(window)), new ArrayList<>(decoded.spaces.keySet()));
  }
}
