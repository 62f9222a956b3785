package dev.statekit.local.template;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CloudFormation's intrinsic functions, as far as the local runner needs them: {@code Ref}, {@code
 * Fn::GetAtt}, {@code Fn::Sub} and {@code Fn::Join}, resolved against local resources.
 */
public final class Intrinsics {
  private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!][^}]*)}");

  private Intrinsics() {}

  /** The resource a {@code Ref} or {@code Fn::GetAtt} names, or {@code null}. */
  public static String referencedLogicalId(JsonNode node) {
    if (node == null || !node.isObject()) {
      return null;
    }
    if (node.has("Ref")) {
      return node.get("Ref").asText();
    }
    JsonNode getAtt = node.get("Fn::GetAtt");
    if (getAtt != null) {
      return getAtt.isArray() ? getAtt.path(0).asText() : getAtt.asText().split("\\.", 2)[0];
    }
    return null;
  }

  /** Every name referenced anywhere under {@code node} by Ref, GetAtt or a Sub variable. */
  public static Set<String> references(JsonNode node) {
    Set<String> names = new LinkedHashSet<>();
    collect(node, names);
    return names;
  }

  private static void collect(JsonNode node, Set<String> names) {
    if (node == null) {
      return;
    }
    String direct = referencedLogicalId(node);
    if (direct != null) {
      names.add(direct.split("\\.", 2)[0]);
      return;
    }
    JsonNode sub = node.get("Fn::Sub");
    if (sub != null) {
      Matcher m = SUB_VARIABLE.matcher(sub.isArray() ? sub.path(0).asText() : sub.asText());
      while (m.find()) {
        names.add(m.group(1).split("\\.", 2)[0]);
      }
    }
    node.forEach(child -> collect(child, names));
  }

  /**
   * The text {@code node} stands for.
   *
   * @param resources the value of a resource's {@code Ref} and attributes, by logical id
   * @param pseudo pseudo parameters such as {@code AWS::Region}
   * @throws IllegalArgumentException if it names a resource or attribute that is not there
   */
  public static String resolve(
      JsonNode node, Function<String, LocalResource> resources, Map<String, String> pseudo) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      return node.asText();
    }
    if (node.has("Ref")) {
      String name = node.get("Ref").asText();
      return pseudo.containsKey(name) ? pseudo.get(name) : resource(resources, name).ref();
    }
    JsonNode getAtt = node.get("Fn::GetAtt");
    if (getAtt != null) {
      return resource(resources, getAtt.path(0).asText()).attribute(getAtt.path(1).asText());
    }
    JsonNode sub = node.get("Fn::Sub");
    if (sub != null) {
      Matcher m = SUB_VARIABLE.matcher(sub.isArray() ? sub.path(0).asText() : sub.asText());
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String[] parts = m.group(1).split("\\.", 2);
        String value =
            pseudo.containsKey(m.group(1))
                ? pseudo.get(m.group(1))
                : parts.length == 1
                    ? resource(resources, parts[0]).ref()
                    : resource(resources, parts[0]).attribute(parts[1]);
        m.appendReplacement(out, Matcher.quoteReplacement(value));
      }
      m.appendTail(out);
      return out.toString();
    }
    JsonNode join = node.get("Fn::Join");
    if (join != null) {
      StringBuilder out = new StringBuilder();
      String separator = join.path(0).asText();
      for (JsonNode part : join.path(1)) {
        out.append(out.length() == 0 ? "" : separator).append(resolve(part, resources, pseudo));
      }
      return out.toString();
    }
    throw new IllegalArgumentException(
        "The local runner cannot resolve " + node + "; use Ref, Fn::GetAtt, Fn::Sub or Fn::Join");
  }

  private static LocalResource resource(Function<String, LocalResource> resources, String name) {
    LocalResource resource = resources.apply(name);
    if (resource == null) {
      throw new IllegalArgumentException(
          "The template refers to '" + name + "', which is not one of its resources");
    }
    return resource;
  }
}
