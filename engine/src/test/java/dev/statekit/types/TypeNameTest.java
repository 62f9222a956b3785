package dev.statekit.types;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Type names as StateFun's SDKs read them: split at the last '/', one '/' ending a namespace
 * dropped.
 */
class TypeNameTest {
  @Test
  void aNamespaceEndingInASlashNamesTheSameTypeAsWithout() {
    TypeName plain = TypeName.of("shop", "cart");

    assertEquals(plain, TypeName.of("shop/", "cart"));
    assertEquals(plain, TypeName.parse("shop//cart"));
    assertEquals("shop", TypeName.of("shop/", "cart").namespace());
    assertEquals("shop/cart", TypeName.parse("shop//cart").asString());
  }

  @Test
  void aNamespaceEndingInTwoSlashesIsRefused() {
    IllegalArgumentException of =
        assertThrows(IllegalArgumentException.class, () -> TypeName.of("shop//", "cart"));
    IllegalArgumentException parse =
        assertThrows(IllegalArgumentException.class, () -> TypeName.parse("shop///cart"));

    assertTrue(of.getMessage().contains("'shop///cart'"), of.getMessage());
    assertTrue(of.getMessage().contains("ends in two '/'"), of.getMessage());
    assertTrue(parse.getMessage().contains("ends in two '/'"), parse.getMessage());
    assertEquals("type.googleapis.com", TypeName.parse("type.googleapis.com/a.B").namespace());
  }

  @Test
  void aNamespaceOfOneSlashIsEmpty() {
    IllegalArgumentException of =
        assertThrows(IllegalArgumentException.class, () -> TypeName.of("/", "cart"));
    IllegalArgumentException parse =
        assertThrows(IllegalArgumentException.class, () -> TypeName.parse("//cart"));

    assertTrue(of.getMessage().contains("non-empty namespace"), of.getMessage());
    assertTrue(parse.getMessage().contains("namespace is empty"), parse.getMessage());
  }

  /**
   * The runtime writes a type name as its text (queue bodies, outbox items, dead letters) and reads
   * it back with parse: a type whose namespace still ends in '/' once one is dropped ("shop//" is
   * "shop/") must read back as itself, not as another type.
   */
  /**
   * The runtime stores addresses as text and reads them back with parse: a type whose namespace
   * kept a '/' ("shop//" once one is dropped) read back as another type (shop/cart), so a queued
   * message to it went to another function or to none.
   */
  @Test
  void aTypeNameReadsBackFromItsTextAsItself() {
    for (String namespace : List.of("shop", "shop/", "a/b", "a/b/", "type.googleapis.com", "é/")) {
      TypeName type = TypeName.of(namespace, "cart");

      assertEquals(type, TypeName.parse(type.asString()), namespace);
      assertEquals(type.namespace(), TypeName.parse(type.asString()).namespace(), namespace);
    }
  }
}
