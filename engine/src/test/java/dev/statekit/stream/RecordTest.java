package dev.statekit.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A record keeps position and headers in one field: every way of making one must agree. */
class RecordTest {
  @Test
  void aRecordAtANumericOffsetHasThatPositionAndNoHeaders() {
    Record<String> r = Record.at("shard-1", 42, "k", "v", 7);
    assertEquals(new SourcePosition("shard-1", "42"), r.position());
    assertEquals(Map.of(), r.headers());
    assertEquals("k", r.key());
    assertEquals("v", r.value());
    assertEquals(7, r.timestamp());
    assertEquals(r, Record.of("k", "v", 7, Map.of(), SourcePosition.of("shard-1", 42)));
    assertEquals(
        r.hashCode(),
        Record.of("k", "v", 7, Map.of(), SourcePosition.of("shard-1", 42)).hashCode());
    assertNull(Record.at(null, 3, null, "v", 1).position());
  }

  @Test
  void derivedRecordsKeepPositionHeadersAndTimestamp() {
    SourcePosition textual =
        new SourcePosition("shard-2", "49590338271490256608559692538361571095921575989136588898");
    for (Record<String> base :
        new Record[] {
          Record.at("s", 5, null, "v", 10),
          Record.of(null, "v", 10, Map.of(), textual),
          Record.of(null, "v", 10, Map.of("h", "1"), textual),
          Record.of(null, "v", 10, Map.of("h", "1"), null),
          Record.at("s", 5, null, "v", 10).withHeader("h", "1"),
        }) {
      Record<Integer> derived = base.withKeyAndValue("k", 1).withTimestamp(11).withKey("k2");
      assertEquals(base.position(), derived.position(), base.toString());
      assertEquals(base.headers(), derived.headers(), base.toString());
      assertEquals(11, derived.timestamp());
      assertEquals("k2", derived.key());
      assertEquals(1, derived.value());
      Record<String> moved = base.withPosition(SourcePosition.of("t", 9));
      assertEquals(SourcePosition.of("t", 9), moved.position());
      assertEquals(base.headers(), moved.headers());
      Record<String> more = base.withHeader("x", "y");
      assertEquals(base.position(), more.position());
      assertEquals("y", more.headers().get("x"));
      assertEquals(base.headers().size() + 1, more.headers().size());
    }
  }

  @Test
  void headersAndPositionTakePartInEquality() {
    Record<String> plain = Record.at("s", 5, "k", "v", 1);
    assertNotEquals(plain, plain.withHeader("h", "1"));
    assertNotEquals(plain, Record.at("s", 6, "k", "v", 1));
    assertNotEquals(plain, Record.at("t", 5, "k", "v", 1));
    assertEquals(
        plain.withHeader("h", "1"),
        Record.of("k", "v", 1, Map.of("h", "1"), SourcePosition.of("s", 5)));
    assertEquals(
        "Record{key=k, value=v, ts=1, headers={h=1}, at=s@5}",
        plain.withHeader("h", "1").toString());
  }
}
