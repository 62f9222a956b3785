package dev.statekit.stream.lambda.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kept outputs whose record key or id is past the 65,535 bytes {@code writeUTF} takes are written
 * in a long format, which reads back the same; every other list is written as before, for processes
 * of an earlier version that read the same items.
 */
class StoredOutputLongTextTest {
  private static byte[] write(List<StoredOutput> outputs) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StoredOutput.writeAll(new DataOutputStream(bytes), outputs);
    return bytes.toByteArray();
  }

  private static List<StoredOutput> read(byte[] bytes) throws IOException {
    return StoredOutput.readAll(new DataInputStream(new ByteArrayInputStream(bytes)));
  }

  @Test
  void aListWithAKeyPast64KibReadsBackTheSame() throws IOException {
    String key = "é".repeat(40_000); // 80,000 bytes of UTF-8, 40,000 characters
    StoredOutput small = new StoredOutput("main", "p/s/1/0", "k", "short", new byte[] {1});
    StoredOutput large = new StoredOutput("main", "p/s/2/" + key, "k", key, new byte[] {2, 3});
    byte[] bytes = write(List.of(small, large));
    assertEquals(
        Integer.MAX_VALUE,
        new DataInputStream(new ByteArrayInputStream(bytes)).readInt(),
        "long format");
    List<StoredOutput> back = read(bytes);
    assertEquals(2, back.size());
    assertEquals(large.key(), back.get(1).key());
    assertEquals(large.id(), back.get(1).id());
    assertEquals(small.key(), back.get(0).key());
    assertArrayEquals(large.value(), back.get(1).value());
  }

  @Test
  void aListOfShortStringsIsWrittenAsBefore() throws IOException {
    StoredOutput output = new StoredOutput("main", "p/s/1/0", "k", "x".repeat(65_535), new byte[0]);
    byte[] bytes = write(List.of(output));
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(expected);
    out.writeInt(1);
    out.writeShort(-1);
    out.writeUTF("main");
    out.writeUTF("p/s/1/0");
    out.writeUTF("k");
    out.writeBoolean(true);
    out.writeUTF("x".repeat(65_535));
    out.writeInt(0);
    assertArrayEquals(expected.toByteArray(), bytes, "65,535 bytes still fit writeUTF");
    assertEquals(output.key(), read(bytes).get(0).key());
  }

  @Test
  void aCorruptLengthIsRefusedBeforeItIsAllocated() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(Integer.MAX_VALUE); // long format
    out.writeShort(-3);
    out.writeInt(1);
    out.writeShort(-1);
    out.writeInt(Integer.MAX_VALUE);
    assertThrows(IOException.class, () -> read(bytes.toByteArray()));
  }
}
